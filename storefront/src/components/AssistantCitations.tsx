/**
 * The knowledge entries an assistant answer quotes ("Sources"): each shows its title (the
 * citation) and the quoted passage; opening one loads the whole guide (GET /knowledge/{id}) only
 * then, so a chat full of answers makes no extra calls.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { KnowledgeCitation } from "~/contract/knowledge";
import { errorMessage, useApi } from "../lib/api";

export function AssistantCitations({ citations }: { citations: KnowledgeCitation[] }) {
  if (citations.length === 0) return null;
  return (
    <aside className="assistant__citations" aria-label="Sources" data-testid="assistant-citations">
      <p className="assistant__citations-label">Sources</p>
      <ol className="assistant__citations-list">
        {citations.map((c) => (
          <Citation key={c.id} citation={c} />
        ))}
      </ol>
    </aside>
  );
}

function Citation({ citation }: { citation: KnowledgeCitation }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const entry = useQuery({
    queryKey: ["knowledge", citation.id],
    queryFn: () => api.knowledgeGet({ params: { id: citation.id } }),
    enabled: open,
    staleTime: 30 * 60_000,
    retry: false,
  });
  return (
    <li className="assistant__citation" data-testid="assistant-citation">
      <details onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary className="assistant__citation-title">{citation.title}</summary>
        {entry.isPending && <p className="assistant__citation-text">{citation.excerpt}</p>}
        {entry.isError && (
          <p className="assistant__citation-text" role="alert">
            {errorMessage(entry.error, "This guide is no longer available.")}
          </p>
        )}
        {entry.data && (
          <div className="assistant__citation-text" data-testid="assistant-citation-full">
            {entry.data.content.split(/\n{2,}/).map((para, i) => (
              <p key={i}>{para}</p>
            ))}
          </div>
        )}
        {citation.source && <p className="assistant__citation-source">{citation.source}</p>}
      </details>
    </li>
  );
}
