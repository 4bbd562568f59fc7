/**
 * Knowledge base (issue 19): the guides the shopping assistant cites. List with search and a tag
 * filter, pages of 20; create and edit in a dialog (title, content, tags, source); delete after a
 * confirmation; "Try a question" shows what the assistant would cite, with the scores. Same
 * services and zod schemas as /api/knowledge; needs `knowledge.manage`.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Select, Tag, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { knowledgeEndpoints, KNOWLEDGE_PAGE, type KnowledgeEntry } from "~/contract/knowledge";
import { getAppContext } from "~/context.server";
import { listParam, parseListParams, rangeLabel, type ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createKnowledge, deleteKnowledge, listKnowledge, updateKnowledge } from "~/services/knowledge/entries.server";
import { rankKnowledge, type KnowledgeHit } from "~/services/knowledge/retrieval.server";
import { ActionBanner, ConfirmModal, FormModal, ListFooter, ResponsiveCell, ResponsiveIndexTable, ResponsiveRow, SectionCard } from "~/components/admin";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "knowledge.manage");
  const ctx = getAppContext();
  const list = parseListParams(new URL(request.url).searchParams, {
    skip: listParam.page(0),
    q: listParam.text(200),
    tag: listParam.text(40),
  });
  const query = knowledgeEndpoints.knowledgeList.query.parse({ q: list.q || undefined, tag: list.tag || undefined, skip: list.skip, take: KNOWLEDGE_PAGE });
  return { page: await listKnowledge(ctx.db, query), query: { q: query.q ?? "", tag: query.tag ?? "" } };
};

type KnowledgeAction = ActionResult | { ok: true; message: string; hits: KnowledgeHit[] };

const tagsOf = (v: FormDataEntryValue | null) =>
  String(v ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

export const action = async ({ request }: ActionFunctionArgs): Promise<KnowledgeAction> => {
  await requireAdmin(request, "knowledge.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = form.get("intent");
  const fields = { title: form.get("title"), content: form.get("content"), tags: tagsOf(form.get("tags")), source: String(form.get("source") ?? "") };
  if (intent === "create") {
    const parsed = knowledgeEndpoints.knowledgeCreate.body.safeParse(fields);
    if (!parsed.success) return invalidInput(parsed.error);
    return answerRefusals(async () => {
      const e = await createKnowledge(ctx.db, parsed.data);
      return { ok: true as const, message: `Created "${e.title}".` };
    });
  }
  if (intent === "update") {
    const parsed = knowledgeEndpoints.knowledgeUpdate.body.safeParse(fields);
    if (!parsed.success) return invalidInput(parsed.error);
    return answerRefusals(async () => {
      const e = await updateKnowledge(ctx.db, String(form.get("id") ?? ""), parsed.data);
      return { ok: true as const, message: `Saved "${e.title}".` };
    });
  }
  if (intent === "delete") {
    return answerRefusals(async () => {
      await deleteKnowledge(ctx.db, String(form.get("id") ?? ""));
      return { ok: true as const, message: "Entry deleted." };
    });
  }
  if (intent === "try") {
    const parsed = knowledgeEndpoints.knowledgeSearch.body.safeParse({ question: form.get("question"), context_tags: tagsOf(form.get("context")) });
    if (!parsed.success) return invalidInput(parsed.error);
    const hits = await rankKnowledge({ db: ctx.db }, parsed.data.question, { contextTags: parsed.data.context_tags, limit: parsed.data.limit });
    return { ok: true, message: hits.some((h) => h.cited) ? "The assistant would cite the entries marked Cited." : "The assistant would cite no entry for this question.", hits };
  }
  return { ok: false, error: "Unknown action" };
};

type Editing = { mode: "create" } | { mode: "edit"; entry: KnowledgeEntry };

export default function KnowledgeBase() {
  const { page, query } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const [search, setSearch] = useState(query.q);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeEntry | null>(null);
  const deleter = useFetcher<typeof action>();
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!("skip" in changes)) next.delete("skip");
    setParams(next);
  };
  const closeEditor = useCallback(() => setEditing(null), []);
  // A deletion that went through closes its dialog; a refusal keeps it open with the reason.
  useEffect(() => {
    if (deleter.state === "idle" && deleter.data?.ok) setDeleting(null);
  }, [deleter.state, deleter.data]);
  const tagOptions = [{ label: "All tags", value: "" }, ...page.tags.map((t) => ({ label: `${t.tag} (${t.count})`, value: t.tag }))];
  if (query.tag && !page.tags.some((t) => t.tag === query.tag)) tagOptions.push({ label: query.tag, value: query.tag });

  return (
    <Page title="Knowledge base" subtitle="Guides the shopping assistant quotes and cites" primaryAction={{ content: "Add entry", onAction: () => setEditing({ mode: "create" }) }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="300">
            <ActionBanner result={deleter.data} testId="knowledge-outcome" />
            <Card padding="0">
              <Box padding="300">
                <Form method="get">
                  <InlineStack gap="300" blockAlign="end" wrap={false}>
                    <div style={{ flex: 1 }}>
                      <TextField label="Search entries" labelHidden name="q" placeholder="Search titles, content and tags" autoComplete="off" value={search} onChange={setSearch} />
                    </div>
                    <Select label="Tag" labelInline options={tagOptions} value={query.tag} onChange={(v) => set({ tag: v || undefined })} />
                    {query.tag ? <input type="hidden" name="tag" value={query.tag} /> : null}
                    <Button submit loading={navigation.state === "loading"}>
                      Search
                    </Button>
                  </InlineStack>
                </Form>
              </Box>
              <ResponsiveIndexTable
                resourceName={{ singular: "entry", plural: "entries" }}
                itemCount={page.items.length}
                selectable={false}
                emptyState={
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      {query.q || query.tag ? "No entries match." : "No entries yet: add the first guide."}
                    </Text>
                  </Box>
                }
                headings={[{ title: "Entry" }, { title: "Tags" }, { title: "Updated" }, { title: "" }]}
              >
                {page.items.map((e, i) => (
                  <ResponsiveRow id={e.id} key={e.id} position={i}>
                    <ResponsiveCell>
                      <Button variant="plain" onClick={() => setEditing({ mode: "edit", entry: e })} dataPrimaryLink>
                        {e.title}
                      </Button>
                      <Text as="p" tone="subdued" variant="bodySm" truncate>
                        {e.content.slice(0, 140)}
                      </Text>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <InlineStack gap="100">
                        {e.tags.slice(0, 6).map((t) => (
                          <Tag key={t} onClick={() => set({ tag: t })}>
                            {t}
                          </Tag>
                        ))}
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>{new Date(e.updated_at).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}</ResponsiveCell>
                    <ResponsiveCell>
                      <Button variant="plain" tone="critical" onClick={() => setDeleting(e)} accessibilityLabel={`Delete ${e.title}`}>
                        Delete
                      </Button>
                    </ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
              <ListFooter
                summary={rangeLabel(page.skip, page.take, page.total, "No entries")}
                page={Math.floor(page.skip / page.take) + 1}
                pageCount={Math.max(1, Math.ceil(page.total / page.take))}
                onPage={(p) => set({ skip: String((p - 1) * page.take) })}
                showPageLabel={false}
              />
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <TryQuestion />
        </Layout.Section>
      </Layout>
      {editing ? <EntryModal editing={editing} onClose={closeEditor} /> : null}
      {deleting ? (
        <ConfirmModal
          title={`Delete "${deleting.title}"?`}
          confirmLabel="Delete"
          loading={deleter.state !== "idle"}
          error={deleter.data && !deleter.data.ok ? deleter.data.error : null}
          onConfirm={() => deleter.submit({ intent: "delete", id: deleting.id }, { method: "post" })}
          onClose={() => setDeleting(null)}
        >
          <Text as="p">The assistant stops citing it. Answers it was cited in keep its title.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function EntryModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const entry = editing.mode === "edit" ? editing.entry : null;
  const [form, setForm] = useState({ title: entry?.title ?? "", content: entry?.content ?? "", tags: entry?.tags.join(", ") ?? "", source: entry?.source ?? "" });
  const submit = () => fetcher.submit({ intent: entry ? "update" : "create", ...(entry ? { id: entry.id } : {}), ...form }, { method: "post" });
  return (
    <FormModal title={entry ? "Edit entry" : "Add entry"} submitLabel={entry ? "Save" : "Create"} fetcher={fetcher} onSubmit={submit} onClose={onClose}>
      <TextField label="Title" autoComplete="off" value={form.title} onChange={(title) => setForm({ ...form, title })} helpText="Shoppers see it as the citation under the assistant's answer." />
      <TextField label="Content" autoComplete="off" multiline={8} value={form.content} onChange={(content) => setForm({ ...form, content })} />
      <TextField label="Tags" autoComplete="off" value={form.tags} onChange={(tags) => setForm({ ...form, tags })} helpText="Comma separated, e.g. care, linen, washing. Materials and garments help the assistant match a product." />
      <TextField label="Source" autoComplete="off" value={form.source} onChange={(source) => setForm({ ...form, source })} helpText="Optional: where the advice comes from (a policy page, a care label)." />
    </FormModal>
  );
}

function TryQuestion() {
  const fetcher = useFetcher<typeof action>();
  const [question, setQuestion] = useState("How do I wash linen?");
  const [context, setContext] = useState("");
  const result = fetcher.data;
  const hits = result && result.ok && "hits" in result ? result.hits : null;
  return (
    <SectionCard title="Try a question" gap="300">
      <TextField label="Question" autoComplete="off" value={question} onChange={setQuestion} />
      <TextField label="Product words" autoComplete="off" value={context} onChange={setContext} helpText="Optional: the material and garment of the product asked about, e.g. denim, jeans." />
      <Button onClick={() => fetcher.submit({ intent: "try", question, context }, { method: "post" })} loading={fetcher.state !== "idle"}>
        Show what the assistant cites
      </Button>
      {result && !result.ok ? <ActionBanner result={result} /> : null}
      {hits ? (
        <BlockStack gap="200">
          <Text as="p" tone="subdued">
            {result && result.ok ? result.message : ""}
          </Text>
          {hits.map((h) => (
            <InlineStack key={h.entry.id} gap="200" blockAlign="center" wrap={false}>
              <Text as="span" numeric>
                {h.score.toFixed(2)}
              </Text>
              <Text as="span">{h.entry.title}</Text>
              {h.cited ? <Badge tone="success">Cited</Badge> : null}
            </InlineStack>
          ))}
        </BlockStack>
      ) : null}
    </SectionCard>
  );
}
