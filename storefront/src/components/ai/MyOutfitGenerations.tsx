/**
 * The shopper's generated looks on My try-ons: newest first, each with its picture, or its
 * progress (polled every 5 s while in progress, SPEC §4), or its failure with Retry; and Delete.
 * Shows nothing until the shopper has generated a look.
 */
import { errorMessage } from "../../lib/api";
import { TRYON_PLACEHOLDER_IMAGE } from "../../lib/ai-constants";
import {
  generationLabel,
  toStatus,
  useDeleteOutfitGeneration,
  useOutfitGenerationStatus,
  useOutfitGenerations,
  useRetryOutfitGeneration,
  type OutfitGeneration,
} from "../../lib/outfit-generations";
import { outfitDone, outfitFailed, outfitPercent } from "../../lib/outfit-status";
import { AiProgress } from "./AiProgress";
import "../../tryon.css";

export function MyOutfitGenerations({ enabled }: { enabled: boolean }) {
  const list = useOutfitGenerations(enabled, 20);
  const outfits = list.data?.outfits ?? [];
  if (outfits.length === 0) return null;
  return (
    <section aria-labelledby="generated-looks-heading" data-testid="outfit-generations" style={{ marginTop: 32 }}>
      <h2 id="generated-looks-heading" className="section-title">
        Generated looks
      </h2>
      <ul className="tryon-grid">
        {outfits.map((o) => (
          <GeneratedLook key={o.id} outfit={o} />
        ))}
      </ul>
    </section>
  );
}

function GeneratedLook({ outfit }: { outfit: OutfitGeneration }) {
  const initial = toStatus(outfit);
  // Only a look still being made is polled; a finished one reads its list entry.
  const polled = !outfitDone(initial);
  const live = useOutfitGenerationStatus(polled ? outfit.id : null, polled ? initial : null);
  const status = polled ? (live.status ?? initial) : initial;
  const retry = useRetryOutfitGeneration();
  const remove = useDeleteOutfitGeneration();
  const failed = outfitFailed(status);
  const done = outfitDone(status);
  return (
    <li className="tryon-card" data-testid="outfit-generation-card" data-status={done ? (failed ? "failed" : "completed") : "in-progress"}>
      <img className="tryon__image" src={status.image_url ?? TRYON_PLACEHOLDER_IMAGE} alt={done && !failed ? `${outfit.name} on ${outfit.clone?.name ?? "your clone"}` : ""} />
      <p className="tryon-card__title">{outfit.name}</p>
      {!done && <AiProgress label={generationLabel(status)} percent={outfitPercent(status)} />}
      {failed && (
        <p className="tryon__message tryon__message--error" role="alert">
          {status.error ?? "The outfit could not be made."}
        </p>
      )}
      <div className="tryon__actions">
        {failed && (
          <button type="button" className="button button--small" disabled={retry.isPending} onClick={() => retry.mutate(outfit.id)}>
            {retry.isPending ? "Retrying…" : "Retry"}
          </button>
        )}
        <button type="button" className="button button--ghost button--small" disabled={remove.isPending} onClick={() => remove.mutate(outfit.id)}>
          Delete
        </button>
      </div>
      {(retry.error ?? remove.error) != null && (
        <p className="inline-problem" role="alert">
          {errorMessage(retry.error ?? remove.error)}
        </p>
      )}
    </li>
  );
}
