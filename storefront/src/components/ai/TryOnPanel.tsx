/**
 * "Try it on" on the product page and in the product modal, for products that can be tried on
 * (their companion's try-on flag). The shopper picks a clone — their own ready ones, or a public
 * house model — and starts a try-on (get-or-generate: an earlier result for the same inputs comes
 * back at once); while it is queued or being made its progress is polled; then the picture (a
 * placeholder when it has none, SPEC §9), saved with an optimistic toggle, or made again. When
 * the server refuses (501: the image provider cannot do try-ons; 409: the clone is not ready;
 * 422: the product cannot be tried on) its message is shown. Without a clone, the panel offers
 * to create one or to sign in. `?tryon=1` on the product page opens it (the theme's try-on block).
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { errorMessage, useApi } from "../../lib/api";
import { TRYON_PARAM, TRYON_PLACEHOLDER_IMAGE } from "../../lib/ai-constants";
import { cloneImage, useHouseModels, useReadyClones } from "../../lib/clones";
import { outfitInProgress, outfitReady } from "../../lib/outfit-status";
import { useSavedTryOn, USER_TRYONS_LIST_KEY } from "../../lib/saved-tryons";
import { useSession } from "../../lib/session";
import { latestTryOnKey, tryOnBusy, tryOnImage, tryOnKey, useTryOn, useTryOnEligible, type TryOn } from "../../lib/tryons";
import { Spinner } from "../FeedStatus";
import { InlineProblem, LoginPrompt } from "../LoginPrompt";
import { HeartIcon } from "../SaveButton";
import { AiProgress } from "./AiProgress";
import { TryOnImage } from "./TryOnImage";
import { AddToCartQuick, focusOptionPicker } from "../AddToCartQuick";
import "../../account.css";
import "../../tryon.css";

interface Choice {
  id: string;
  name: string;
  image: string | null;
  kind: "own" | "house";
}

export function TryOnPanel({
  product,
  compact = false,
  openOnParam = false,
}: {
  product: { id: string; title: string };
  compact?: boolean;
  openOnParam?: boolean;
}) {
  const eligible = useTryOnEligible(product.id);
  const [params] = useSearchParams();
  const asked = openOnParam && params.get(TRYON_PARAM) === "1";
  const [open, setOpen] = useState(asked);
  const uid = useId();
  const rootRef = useRef<HTMLElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [clicked, setClicked] = useState(false);
  // Opened with the button (which goes away): focus moves into the panel.
  useEffect(() => {
    if (clicked && open) bodyRef.current?.focus();
  }, [clicked, open]);

  useEffect(() => {
    if (asked) setOpen(true);
  }, [asked]);
  // Opened by the address: bring the panel into view once it is there.
  useEffect(() => {
    if (asked && eligible.data) rootRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [asked, eligible.data]);

  if (!eligible.data) return null;
  return (
    <section ref={rootRef} className={`tryon panel panel--ai${compact ? " tryon--compact" : ""}`} aria-labelledby={`${uid}-title`} data-testid="tryon-panel">
      <h2 id={`${uid}-title`} className="panel__title">
        See it on you <span className="badge badge--ai">AI</span>
      </h2>
      {!open ? (
        <div>
          <p className="panel__text">Try {product.title} on your clone, an AI model made from your photos.</p>
          <p>
            <button
              type="button"
              className="button tryon__toggle"
              aria-expanded={false}
              aria-controls={`${uid}-body`}
              onClick={() => {
                setClicked(true);
                setOpen(true);
              }}
              data-testid="tryon-open"
            >
              Try it on
            </button>
          </p>
        </div>
      ) : (
        <div id={`${uid}-body`} ref={bodyRef} tabIndex={-1} aria-label={`Try ${product.title} on`} style={{ outline: "none" }}>
          <TryOnBody productId={product.id} productTitle={product.title} />
        </div>
      )}
    </section>
  );
}

function TryOnBody({ productId, productTitle }: { productId: string; productTitle: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const { user, signedIn } = useSession();
  const own = useReadyClones(!!user);
  const house = useHouseModels(!!user);
  const [cloneId, setCloneId] = useState<string | null>(null);
  /** Try-ons started here, per clone (newest wins over the latest one the server had). */
  const [started, setStarted] = useState<Record<string, string>>({});
  const uid = useId();

  const training = (own.data ?? []).filter((c) => outfitInProgress(c) && (c.training_job || c.processing_status !== "PENDING"));
  const choices = useMemo<Choice[]>(
    () => [
      ...(own.data ?? []).filter((c) => outfitReady(c)).map((c) => ({ id: c.id, name: c.name, image: cloneImage(c), kind: "own" as const })),
      ...(house.data ?? []).map((m) => ({ id: m.id, name: m.name, image: cloneImage(m), kind: "house" as const })),
    ],
    [own.data, house.data]
  );
  useEffect(() => {
    if (choices.length > 0 && (!cloneId || !choices.some((c) => c.id === cloneId))) setCloneId(choices[0].id);
  }, [choices, cloneId]);

  // The shopper's latest try-on of this product on the chosen clone, if any.
  const latest = useQuery({
    queryKey: latestTryOnKey(cloneId ?? "", productId),
    queryFn: async () => {
      const t = await api.vtonGet({ query: { ai_clone_id: cloneId ?? "", shopify_product_id: productId } });
      if (t) qc.setQueryData(tryOnKey(t.id), t);
      return t;
    },
    enabled: !!user && !!cloneId,
    staleTime: 60_000,
    retry: false,
  });
  const currentId = (cloneId && started[cloneId]) || latest.data?.id || null;
  const tryon = useTryOn(currentId);

  const onStarted = (t: TryOn) => {
    qc.setQueryData(tryOnKey(t.id), t);
    setStarted((s) => ({ ...s, [t.clone_id]: t.id }));
    void qc.invalidateQueries({ queryKey: USER_TRYONS_LIST_KEY });
  };
  const body = () => ({ ai_clone_id: cloneId ?? "", shopify_product_id: productId, enable_add_details: true });
  const start = useMutation({ mutationFn: () => api.vtonGetOrGenerate({ body: body() }), onSuccess: onStarted });
  const again = useMutation({ mutationFn: () => api.vtonGenerate({ body: body() }), onSuccess: onStarted });

  // A finished try-on: the lists show it too.
  const t = tryon.data;
  const finished = t && !tryOnBusy(t);
  useEffect(() => {
    if (finished) void qc.invalidateQueries({ queryKey: USER_TRYONS_LIST_KEY });
  }, [finished, qc]);

  if (!user || own.isPending || house.isPending) {
    return (
      <div className="modal__loading">
        <Spinner label="Loading your clones…" />
      </div>
    );
  }

  const problem = start.error ?? again.error;
  const busy = start.isPending || again.isPending || tryOnBusy(t);

  return (
    <div className={`tryon__body${choices.length === 0 ? " tryon__body--single" : ""}`} data-testid="tryon-body">
      <div>
        {!signedIn && choices.length > 0 && (
          <p className="tryon__message" data-testid="tryon-guest-note">
            You are trying clothes on as a guest. <Link to="/login">Sign in</Link> to use your clones and keep your try-ons on every device.
          </p>
        )}
        {choices.length === 0 ? (
          <div className="tryon__message" data-testid="tryon-no-clone">
            <p style={{ margin: "0 0 10px" }}>
              {training.length > 0
                ? `${training[0].name} is still training. It will be ready for try-ons in a few minutes.`
                : "You need a clone to try clothes on: an AI model made from a few photos of you."}
            </p>
            <div className="tryon__actions">
              <Link className="button button--small" to="/clones" data-testid="tryon-create-clone">
                {training.length > 0 ? "See progress" : "Create your clone"}
              </Link>
              {!signedIn && (
                <Link className="button button--small button--ghost" to="/login" data-testid="tryon-sign-in">
                  Sign in
                </Link>
              )}
            </div>
          </div>
        ) : (
          <fieldset className="tryon__clones" data-testid="tryon-clones">
            <legend>Try it on</legend>
            {choices.map((c) => (
              <label key={c.id} className="tryon__clone" data-testid="tryon-clone" data-clone-id={c.id}>
                <input type="radio" name={`${uid}-clone`} value={c.id} checked={cloneId === c.id} onChange={() => setCloneId(c.id)} disabled={busy} />
                <img src={c.image ?? TRYON_PLACEHOLDER_IMAGE} alt="" width={64} height={64} />
                <span>
                  {c.name}
                  {c.kind === "house" && <span className="visually-hidden"> (house model)</span>}
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {own.isError && (
          <p className="inline-problem" role="alert">
            {errorMessage(own.error)}
          </p>
        )}
        {choices.length > 0 && (
          <div className="tryon__actions" style={{ marginTop: 14 }}>
            {!t || t.status === "failed" ? (
              <button
                type="button"
                className="button"
                disabled={!cloneId || busy}
                onClick={() => (t ? again.mutate() : start.mutate())}
                data-testid="tryon-start"
              >
                {start.isPending || again.isPending ? "Starting…" : t ? "Try again" : "Try it on"}
              </button>
            ) : (
              <button type="button" className="button button--ghost" disabled={busy} onClick={() => again.mutate()} data-testid="tryon-retry">
                {again.isPending ? "Starting…" : "Make a new one"}
              </button>
            )}
          </div>
        )}
      </div>

      <div className="tryon__result" aria-live="polite" data-testid="tryon-result" data-status={t?.status ?? "none"}>
        {problem != null && (
          <p className="tryon__message tryon__message--error" role="alert" data-testid="tryon-error">
            {errorMessage(problem, "The try-on could not start. Please try again.")}
          </p>
        )}
        {tryon.isError && !t && (
          <p className="tryon__message tryon__message--error" role="alert">
            {errorMessage(tryon.error)}
          </p>
        )}
        {t && tryOnBusy(t) && (
          <>
            <img className="tryon__image" src={TRYON_PLACEHOLDER_IMAGE} alt="" aria-hidden="true" />
            <AiProgress
              label={t.status === "queued" ? "Waiting to start…" : "Dressing your clone…"}
              percent={t.status === "queued" && !t.progress ? null : t.progress}
              testId="tryon-progress"
            />
          </>
        )}
        {t && t.status === "completed" && (
          <>
            <TryOnImage url={tryOnImage(t)} alt={`${productTitle} on ${t.clone?.name ?? "your clone"}`} className="tryon__image" testId="tryon-result-image" />
            <div className="tryon__actions">
              <TryOnSaveButton tryonId={t.id} />
              <AddToCartQuick
                product={{ id: productId, title: productTitle }}
                label="Add this to cart"
                testId="tryon-add-to-cart"
                onChooseOptions={() => focusOptionPicker(productId)}
              />
              <Link className="button button--ghost button--small" to="/try-ons">
                All your try-ons
              </Link>
            </div>
          </>
        )}
        {t && t.status === "failed" && (
          <p className="tryon__message tryon__message--error" role="alert" data-testid="tryon-failed">
            {t.error ?? "This try-on did not work."} Try again, or choose another clone.
          </p>
        )}
        {!t && !busy && choices.length > 0 && !latest.isPending && (
          <p className="panel__text">Choose a clone and press “Try it on”. It takes a little while.</p>
        )}
      </div>
    </div>
  );
}

/** Saves a try-on: optimistic, rolled back on error (SPEC §4); a sign-in prompt on a 401. */
export function TryOnSaveButton({ tryonId, compact = false }: { tryonId: string; compact?: boolean }) {
  const s = useSavedTryOn(tryonId);
  return (
    <div className={`save save--${compact ? "icon" : "full"}`}>
      <button
        type="button"
        className={`save__button${s.on ? " save__button--on" : ""}`}
        aria-pressed={s.on}
        aria-label={compact ? "Save this try-on" : undefined}
        title={s.on ? "Saved" : "Save"}
        data-testid="tryon-save"
        data-saved={s.on ? "true" : "false"}
        data-pending={s.pending ? "true" : undefined}
        data-known={s.known ? "true" : "false"}
        onClick={(e) => {
          e.preventDefault();
          void s.toggle();
        }}
      >
        <HeartIcon filled={s.on} />
        {!compact && <span className="save__label">{s.on ? "Saved" : "Save try-on"}</span>}
      </button>
      {s.problem?.kind === "login" && <LoginPrompt onClose={s.dismiss} action="save try-ons" />}
      {s.problem?.kind === "error" && <InlineProblem message={s.problem.message} onClose={s.dismiss} testId="tryon-save-error" />}
    </div>
  );
}
