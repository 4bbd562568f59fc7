/**
 * One of the shopper's clones: picture, name, private/public, training state (a progress bar
 * polled every 5 s while in progress, SPEC §4), the last training job (duration or error), the
 * profile image (generate one, or choose one of the photos), and delete (confirmed).
 */
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../../lib/api";
import { MIN_USABLE_PHOTOS, OUTFIT_POLL_MS, TRYON_PLACEHOLDER_IMAGE } from "../../lib/ai-constants";
import { CLONES_KEY, READY_CLONES_KEY, cloneImage, useCloneStatus, type CloneView } from "../../lib/clones";
import { outfitFailed, outfitLabel, outfitPercent, outfitReady } from "../../lib/outfit-status";
import { ConfirmDialog } from "../ConfirmDialog";
import { AiProgress } from "./AiProgress";
import "../../tryon.css";

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m < 60) return s ? `${m} min ${s} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

export function CloneCard({ clone: listed }: { clone: CloneView }) {
  const api = useApi();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [choosing, setChoosing] = useState(false);

  // While a profile image is being generated, the clone itself is polled (every 5 s) until it is done.
  const live = useQuery({
    queryKey: ["user", "clone", listed.id],
    queryFn: () => api.clonesGetById({ params: { id: listed.id } }),
    initialData: listed,
    initialDataUpdatedAt: Date.now(),
    staleTime: OUTFIT_POLL_MS,
    refetchInterval: (q) => (q.state.data?.profile_image_status === "processing" ? OUTFIT_POLL_MS : false),
    retry: false,
  });
  const clone = live.data ?? listed;
  useEffect(() => {
    qc.setQueryData(["user", "clone", listed.id], listed);
  }, [listed, qc]);

  const { status, started, polling } = useCloneStatus(clone);
  const ready = outfitReady(status);
  const failed = outfitFailed(status);
  const job = clone.training_job;
  const usablePhotos = clone.photos.filter((p) => p.ok);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: CLONES_KEY });
    void qc.invalidateQueries({ queryKey: READY_CLONES_KEY });
  };

  const train = useMutation({
    mutationFn: () =>
      api.clonesProcessSelectedBaseImages({
        body: {
          cloneId: clone.id,
          selectedImageUrls: clone.baseImageUrls.length >= MIN_USABLE_PHOTOS ? clone.baseImageUrls : usablePhotos.map((p) => p.image_url),
        },
      }),
    onSuccess: ({ clone: c }) => {
      qc.setQueryData(["user", "clone", c.id], c);
      qc.setQueryData(["user", "clone-status", c.id], {
        processing_status: c.processing_status,
        outfit_generation_status: c.outfit_generation_status,
        processing_progress: c.processing_progress,
      });
      refresh();
    },
  });
  const generate = useMutation({
    mutationFn: () => api.clonesGenerateProfileImage({ params: { id: clone.id } }),
    onSuccess: ({ clone: c }) => qc.setQueryData(["user", "clone", c.id], c),
  });
  const setProfile = useMutation({
    mutationFn: (profileImageUrl: string) => api.clonesSetProfileImage({ params: { id: clone.id }, body: { profileImageUrl } }),
    onSuccess: (c) => {
      qc.setQueryData(["user", "clone", c.id], c);
      setChoosing(false);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api.clonesDelete({ params: { id: clone.id } }),
    onSuccess: () => {
      setConfirming(false);
      refresh();
    },
  });

  // Profile generation finished (or failed): refresh the lists once.
  const [wasGenerating, setWasGenerating] = useState(false);
  useEffect(() => {
    if (clone.profile_image_status === "processing") setWasGenerating(true);
    else if (wasGenerating) {
      setWasGenerating(false);
      refresh();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clone.profile_image_status]);

  const image = cloneImage(clone);
  const stateBadge = !started ? (
    <span className="badge badge--private">Not trained</span>
  ) : ready ? (
    <span className="badge badge--ready">Ready</span>
  ) : failed ? (
    <span className="badge badge--error">Failed</span>
  ) : (
    <span className="badge badge--busy">{outfitLabel(status)}</span>
  );
  const actionError = [train, generate, setProfile].find((m) => m.isError)?.error;

  return (
    <li
      className="clone-card"
      data-testid="clone-card"
      data-clone-id={clone.id}
      data-status={ready ? "ready" : failed ? "failed" : started ? "training" : "new"}
    >
      <div className="clone-card__head">
        <img className="clone-card__avatar" src={image ?? TRYON_PLACEHOLDER_IMAGE} alt="" width={64} height={64} />
        <div>
          <h3 className="clone-card__name">{clone.name}</h3>
          <p className="clone-card__meta">
            {clone.isPublic ? (
              <span className="badge badge--public" title="Anyone can try clothes on this model">
                Public
              </span>
            ) : (
              <span className="badge badge--private" title="Only you can see and use this clone">
                Private
              </span>
            )}{" "}
            {stateBadge}
          </p>
          <p className="clone-card__meta">
            {clone.gender === "menswear" ? "Menswear" : clone.gender === "womenswear" ? "Womenswear" : null}
            {clone.gender ? " · " : ""}
            {clone.baseImageUrls.length || usablePhotos.length} photos
          </p>
        </div>
      </div>

      {polling && <AiProgress label={outfitLabel(status)} percent={outfitPercent(status)} testId="clone-training-progress" />}
      {job && (job.status === "completed" || ready) && job.duration != null && (
        <p className="clone-card__meta" data-testid="clone-job-duration">
          Trained in {formatDuration(job.duration)}
        </p>
      )}
      {failed && (
        <p className="clone-card__error" role="alert" data-testid="clone-job-error">
          {job?.error ?? "Training did not finish."}
        </p>
      )}
      {clone.profile_image_status === "processing" && <AiProgress label="Making a profile picture" percent={null} testId="clone-profile-progress" />}
      {clone.profile_image_status === "failed" && (
        <p className="clone-card__error">The profile picture could not be made. Try again or choose one of your photos.</p>
      )}

      {choosing && (
        <div>
          <p className="clone-card__meta" id={`choose-${clone.id}`}>
            Choose a profile picture:
          </p>
          <ul className="clone-card__photos" aria-labelledby={`choose-${clone.id}`}>
            {usablePhotos.map((p, i) => (
              <li key={p.image_url}>
                <button
                  type="button"
                  className="clone-card__photo"
                  aria-pressed={clone.profileImageUrl === p.image_url}
                  aria-label={`Use photo ${i + 1} as the profile picture`}
                  disabled={setProfile.isPending}
                  onClick={() => setProfile.mutate(p.image_url)}
                >
                  <img src={p.image_url} alt="" loading="lazy" />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}

      {actionError != null && (
        <p className="clone-card__error" role="alert">
          {errorMessage(actionError)}
        </p>
      )}

      <div className="clone-card__actions">
        {(!started || failed) && clone.is_owner && (
          <button
            type="button"
            className="button button--small"
            disabled={train.isPending || usablePhotos.length < MIN_USABLE_PHOTOS}
            onClick={() => train.mutate()}
            data-testid="clone-train"
          >
            {train.isPending ? "Starting…" : failed ? "Train again" : "Start training"}
          </button>
        )}
        {ready && (
          <Link className="button button--small" to="/" data-testid="clone-shop">
            Shop and try on
          </Link>
        )}
        {clone.is_owner && (
          <>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={generate.isPending || clone.profile_image_status === "processing" || usablePhotos.length === 0}
              onClick={() => generate.mutate()}
            >
              Generate profile picture
            </button>
            {usablePhotos.length > 0 && (
              <button type="button" className="button button--small button--ghost" aria-expanded={choosing} onClick={() => setChoosing((c) => !c)}>
                {choosing ? "Close" : "Choose a photo"}
              </button>
            )}
            <button
              type="button"
              className="button button--small button--ghost button--danger-ghost"
              onClick={() => setConfirming(true)}
              data-testid="clone-delete"
            >
              Delete
            </button>
          </>
        )}
      </div>

      {confirming && (
        <ConfirmDialog
          title={`Delete ${clone.name}?`}
          confirmLabel="Delete clone"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
          testId="clone-delete-dialog"
        >
          <p>Its photos and training are deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
