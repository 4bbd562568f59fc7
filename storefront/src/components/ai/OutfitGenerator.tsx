/**
 * "Wear this look": generates a look on a clone (issue 19). Give it a curated look (`outfitId`)
 * or products (`productIds`); the shopper picks one of their ready clones or a public house model
 * and presses Generate. Progress is polled every 5 s while in progress (SPEC §4,
 * ../../lib/outfit-generations.ts), polling stops when done, then the picture; a failure shows
 * the server's message with Retry. Reusable: "Complete the look" renders it for its look, and the
 * product page for the product.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../../lib/api";
import { TRYON_PLACEHOLDER_IMAGE } from "../../lib/ai-constants";
import { cloneImage, useHouseModels, useReadyClones } from "../../lib/clones";
import { generationLabel, useOutfitGenerationStatus, useRetryOutfitGeneration, useStartOutfitGeneration } from "../../lib/outfit-generations";
import { outfitFailed, outfitPercent, outfitReady } from "../../lib/outfit-status";
import { useSession } from "../../lib/session";
import { Spinner } from "../FeedStatus";
import { AiProgress } from "./AiProgress";
import "../../tryon.css";

interface Choice {
  id: string;
  name: string;
  image: string | null;
  house: boolean;
}

export function OutfitGenerator({ title, outfitId, productIds, defaultOpen = false }: { title: string; outfitId?: string; productIds?: string[]; defaultOpen?: boolean }) {
  const uid = useId();
  const [open, setOpen] = useState(defaultOpen);
  return (
    <section className="tryon panel panel--ai" aria-labelledby={`${uid}-title`} data-testid="outfit-generator">
      <h2 id={`${uid}-title`} className="panel__title">
        Wear this look <span className="badge badge--ai">AI</span>
      </h2>
      {!open ? (
        <div>
          <p className="panel__text">See {title} on your clone or on one of our models.</p>
          <button type="button" className="button" onClick={() => setOpen(true)} data-testid="outfit-generator-open">
            Generate this look
          </button>
        </div>
      ) : (
        <GeneratorBody title={title} outfitId={outfitId} productIds={productIds} />
      )}
    </section>
  );
}

function GeneratorBody({ title, outfitId, productIds }: { title: string; outfitId?: string; productIds?: string[] }) {
  const { user } = useSession();
  const own = useReadyClones(!!user);
  const house = useHouseModels(!!user);
  const uid = useId();
  const [cloneId, setCloneId] = useState<string | null>(null);
  const [generationId, setGenerationId] = useState<string | null>(null);
  const start = useStartOutfitGeneration();
  const retry = useRetryOutfitGeneration();
  const { status, completed, isError, error } = useOutfitGenerationStatus(generationId);

  const choices = useMemo<Choice[]>(
    () => [
      ...(own.data ?? []).filter((c) => outfitReady(c)).map((c) => ({ id: c.id, name: c.name, image: cloneImage(c), house: false })),
      ...(house.data ?? []).map((m) => ({ id: m.id, name: m.name, image: cloneImage(m), house: true })),
    ],
    [own.data, house.data]
  );
  useEffect(() => {
    if (choices.length > 0 && (!cloneId || !choices.some((c) => c.id === cloneId))) setCloneId(choices[0].id);
  }, [choices, cloneId]);

  if (!user || own.isPending || house.isPending) return <Spinner label="Loading your clones…" />;

  const inProgress = !!status && !completed;
  const busy = start.isPending || retry.isPending || inProgress;
  const failed = !!status && outfitFailed(status);
  const problem = start.error ?? retry.error;

  return (
    <div className="tryon__body" data-testid="outfit-generator-body">
      <div>
        {choices.length === 0 ? (
          <p className="tryon__message">
            You need a clone to generate looks on. <Link to="/clones">Create your clone</Link>
          </p>
        ) : (
          <fieldset className="tryon__clones">
            <legend>Choose a clone</legend>
            {choices.map((c) => (
              <label key={c.id} className="tryon__clone" data-testid="outfit-generator-clone" data-clone-id={c.id}>
                <input type="radio" name={`${uid}-clone`} value={c.id} checked={cloneId === c.id} onChange={() => setCloneId(c.id)} disabled={busy} />
                <img src={c.image ?? TRYON_PLACEHOLDER_IMAGE} alt="" width={64} height={64} />
                <span>
                  {c.name}
                  {c.house && <span className="visually-hidden"> (house model)</span>}
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {choices.length > 0 && (
          <div className="tryon__actions" style={{ marginTop: 14 }}>
            <button
              type="button"
              className="button"
              disabled={!cloneId || busy}
              data-testid="outfit-generate"
              onClick={() =>
                start.mutate(
                  { clone_id: cloneId ?? "", ...(outfitId ? { outfit_id: outfitId } : { product_ids: productIds ?? [] }) },
                  { onSuccess: (g) => setGenerationId(g.id) }
                )
              }
            >
              {start.isPending ? "Starting…" : status && completed ? "Generate again" : "Generate"}
            </button>
          </div>
        )}
      </div>

      <div className="tryon__result" aria-live="polite" data-testid="outfit-generation" data-status={status ? (completed ? (failed ? "failed" : "completed") : "in-progress") : "none"}>
        {problem != null && (
          <p className="tryon__message tryon__message--error" role="alert" data-testid="outfit-generation-error">
            {errorMessage(problem, "The outfit could not start. Please try again.")}
          </p>
        )}
        {isError && !status && (
          <p className="tryon__message tryon__message--error" role="alert">
            {errorMessage(error)}
          </p>
        )}
        {status && inProgress && (
          <>
            <img className="tryon__image" src={status.image_url ?? TRYON_PLACEHOLDER_IMAGE} alt="" aria-hidden="true" />
            <AiProgress label={generationLabel(status)} percent={status.processing_status === "PENDING" && !status.processing_progress ? null : outfitPercent(status)} testId="outfit-generation-progress" />
          </>
        )}
        {status && completed && !failed && status.image_url && (
          <img className="tryon__image" src={status.image_url} alt={`${title} on your clone`} data-testid="outfit-generation-image" />
        )}
        {status && completed && failed && (
          <div className="tryon__message tryon__message--error" role="alert" data-testid="outfit-generation-failed">
            <p style={{ margin: "0 0 10px" }}>{status.error ?? "The outfit could not be made."}</p>
            <button
              type="button"
              className="button button--small"
              disabled={retry.isPending}
              onClick={() => generationId && retry.mutate(generationId)}
              data-testid="outfit-generation-retry"
            >
              {retry.isPending ? "Retrying…" : "Retry"}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
