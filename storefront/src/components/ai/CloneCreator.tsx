/**
 * Making a clone from photos: pick photos (file input, or the camera on phones), each compressed in
 * the browser to at most 1024 px keeping its EXIF data (lib/photo-compress.ts), shown as
 * thumbnails; then one upload with a progress bar. The server answers a verdict per photo (usable,
 * or why not). With fewer than 4 usable photos nothing is created: the photos stay here with their
 * verdicts, so the shopper removes the refused ones, adds others and sends again. Once created,
 * the shopper keeps the usable photos they want (4 or more) and starts training.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CloneGender } from "~/contract";
import { errorMessage, useApi } from "../../lib/api";
import { MAX_CLONE_PHOTOS, MIN_USABLE_PHOTOS } from "../../lib/ai-constants";
import { CLONES_KEY, READY_CLONES_KEY, photoVerdictsOf, useCloneUpload, type CloneCreated } from "../../lib/clones";
import { useGender } from "../../lib/gender";
import { validatePhotoFile } from "../../lib/photo";
import { preparePhoto } from "../../lib/photo-compress";
import { AiProgress } from "./AiProgress";
import "../../tryon.css";

interface LocalPhoto {
  key: string;
  name: string;
  /** The compressed photo that is uploaded, once ready. */
  file: File | null;
  preview: string | null;
  state: "preparing" | "ready" | "invalid";
  /** Why the file cannot be read (before any upload). */
  problem?: string;
  /** The server's verdict of the last upload. */
  verdict?: { ok: boolean; reason: string | null; image_url: string | null };
}

let nextKey = 0;

function plural(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function CloneCreator({ onCreated }: { onCreated?(cloneId: string): void }) {
  const api = useApi();
  const qc = useQueryClient();
  const uid = useId();
  const upload = useCloneUpload();
  const { gender: browsing } = useGender();
  const [name, setName] = useState("");
  const [gender, setGender] = useState<CloneGender>(browsing === "menswear" ? "menswear" : "womenswear");
  const [photos, setPhotos] = useState<LocalPhoto[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CloneCreated | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const photosRef = useRef(photos);
  photosRef.current = photos;

  // Object URLs of previews are released when the creator goes away.
  useEffect(() => () => photosRef.current.forEach((p) => p.preview && URL.revokeObjectURL(p.preview)), []);

  const addFiles = async (files: File[]) => {
    setProblem(null);
    const room = MAX_CLONE_PHOTOS - photosRef.current.length;
    if (files.length > room)
      setProblem(`At most ${MAX_CLONE_PHOTOS} photos: ${plural(files.length - Math.max(0, room), "photo was", "photos were")} left out.`);
    const items: LocalPhoto[] = files.slice(0, Math.max(0, room)).map((f) => {
      const invalid = validatePhotoFile(f);
      return { key: `p${nextKey++}`, name: f.name, file: null, preview: null, state: invalid ? "invalid" : "preparing", problem: invalid ?? undefined };
    });
    setPhotos((ps) => [...ps, ...items]);
    // One at a time: compressing several large photos at once is heavy on phones.
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.state === "invalid") continue;
      try {
        const prepared = await preparePhoto(files[i], null, { width: 0, height: 0 });
        const preview = URL.createObjectURL(prepared.file);
        const file = new File([prepared.file], `photo-${item.key}.jpg`, { type: "image/jpeg" });
        setPhotos((ps) => ps.map((p) => (p.key === item.key ? { ...p, file, preview, state: "ready" } : p)));
      } catch (e) {
        const message = e instanceof Error && e.message ? e.message : "This photo could not be read.";
        setPhotos((ps) => ps.map((p) => (p.key === item.key ? { ...p, state: "invalid", problem: message } : p)));
      }
    }
  };

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = "";
    if (files.length) void addFiles(files);
  };

  const remove = (key: string) =>
    setPhotos((ps) => {
      const gone = ps.find((p) => p.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return ps.filter((p) => p.key !== key);
    });

  const ready = photos.filter((p) => p.state === "ready" && p.file);
  const preparing = photos.some((p) => p.state === "preparing");
  const refusedBefore = photos.filter((p) => p.verdict && !p.verdict.ok).length;

  const send = useMutation({
    mutationFn: async () => {
      const sent = ready;
      setProgress(0);
      try {
        const result = await upload.create({ name: name.trim(), gender, photos: sent.map((p) => p.file!) }, setProgress);
        return { result, sent };
      } catch (error) {
        const verdicts = photoVerdictsOf(error);
        if (verdicts) {
          setPhotos((ps) =>
            ps.map((p) => {
              const i = sent.findIndex((s) => s.key === p.key);
              const v = i >= 0 ? verdicts.find((x) => x.index === i) : undefined;
              return v ? { ...p, verdict: { ok: v.ok, reason: v.reason, image_url: v.image_url } } : p;
            })
          );
        }
        throw error;
      } finally {
        setProgress(null);
      }
    },
    onSuccess: ({ result, sent }) => {
      setPhotos((ps) =>
        ps.map((p) => {
          const i = sent.findIndex((s) => s.key === p.key);
          const v = i >= 0 ? result.photos.find((x) => x.index === i) : undefined;
          return v ? { ...p, verdict: { ok: v.ok, reason: v.reason, image_url: v.image_url } } : p;
        })
      );
      setCreated(result);
      setSelected(new Set(result.photos.filter((p) => p.ok && p.image_url).map((p) => p.image_url!)));
      void qc.invalidateQueries({ queryKey: CLONES_KEY });
    },
    onError: (error) => {
      const verdicts = photoVerdictsOf(error);
      if (verdicts) {
        const usable = verdicts.filter((v) => v.ok).length;
        setProblem(
          `Only ${plural(usable, "photo")} can be used: at least ${MIN_USABLE_PHOTOS} photos of just you are needed. ` +
            "Your photos are still here: remove the refused ones, add others and send again."
        );
      } else setProblem(errorMessage(error, "The photos could not be sent. Please try again."));
    },
  });

  const train = useMutation({
    mutationFn: () => api.clonesProcessSelectedBaseImages({ body: { cloneId: created!.clone.id, selectedImageUrls: [...selected] } }),
    onSuccess: ({ clone }) => {
      void qc.invalidateQueries({ queryKey: CLONES_KEY });
      void qc.invalidateQueries({ queryKey: READY_CLONES_KEY });
      photos.forEach((p) => p.preview && URL.revokeObjectURL(p.preview));
      setPhotos([]);
      setCreated(null);
      setName("");
      onCreated?.(clone.id);
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    if (!name.trim()) {
      setProblem("Give your clone a name.");
      return;
    }
    if (ready.length < MIN_USABLE_PHOTOS) {
      setProblem(`Add at least ${MIN_USABLE_PHOTOS} photos of yourself (${ready.length} so far).`);
      return;
    }
    send.mutate();
  };

  const uploading = progress !== null;

  if (created) {
    const usable = created.photos.filter((p) => p.ok && p.image_url);
    const refused = created.photos.filter((p) => !p.ok);
    return (
      <div className="panel panel--ai clone-create" data-testid="clone-created">
        <h3 className="panel__title">{created.clone.name}: choose the photos to train on</h3>
        <p className="panel__text" role="status">
          {plural(usable.length, "photo")} can be used
          {refused.length > 0 ? `, ${plural(refused.length, "photo was", "photos were")} refused` : ""}. Keep at least {MIN_USABLE_PHOTOS}.
        </p>
        <PhotoGrid photos={photos} selectable selected={selected} onToggle={(url) => setSelected((s) => toggled(s, url))} />
        {train.isError && (
          <p className="form-error" role="alert">
            {errorMessage(train.error, "Training could not start. Please try again.")}
          </p>
        )}
        <div className="panel__actions">
          <button
            type="button"
            className="button"
            disabled={selected.size < MIN_USABLE_PHOTOS || train.isPending}
            onClick={() => train.mutate()}
            data-testid="clone-start-training"
          >
            {train.isPending ? "Starting…" : `Start training with ${plural(selected.size, "photo")}`}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="panel panel--ai clone-create" onSubmit={onSubmit} aria-labelledby={`${uid}-title`} data-testid="clone-create">
      <h3 id={`${uid}-title`} className="panel__title">
        Create your clone
      </h3>
      <p className="panel__text">
        Add {MIN_USABLE_PHOTOS}–{MAX_CLONE_PHOTOS} photos of just you: face visible, shoulders in the picture, good light. Photos are made smaller in your
        browser before they are sent.
      </p>
      <div className="panel__row">
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-name`}>
            Name
          </label>
          <input
            id={`${uid}-name`}
            className="field__input"
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
            required
            data-testid="clone-name"
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-gender`}>
            Clothes for
          </label>
          <select
            id={`${uid}-gender`}
            className="field__input"
            value={gender}
            onChange={(e) => setGender(e.target.value as CloneGender)}
            data-testid="clone-gender"
          >
            <option value="womenswear">Womenswear</option>
            <option value="menswear">Menswear</option>
          </select>
        </div>
      </div>
      <div className="clone-create__pick">
        <label className="button button--ghost">
          Choose photos
          <input className="visually-hidden" type="file" accept="image/*" multiple onChange={onPick} disabled={uploading} data-testid="clone-photos-input" />
        </label>
        <label className="button button--ghost">
          Take a photo
          <input
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture="user"
            onChange={onPick}
            disabled={uploading}
            data-testid="clone-camera-input"
          />
        </label>
      </div>
      {photos.length > 0 && <PhotoGrid photos={photos} onRemove={uploading ? undefined : remove} />}
      <p className="panel__text" aria-live="polite" data-testid="clone-photo-count">
        {preparing ? "Preparing photos…" : `${plural(ready.length, "photo")} ready${refusedBefore ? `, ${refusedBefore} refused last time` : ""}.`}
      </p>
      {uploading && <AiProgress label="Sending photos" percent={progress} testId="clone-upload-progress" />}
      {send.isPending && !uploading && <AiProgress label="Checking photos" percent={null} />}
      {problem && (
        <p className="form-error" role="alert" data-testid="clone-create-error">
          {problem}
        </p>
      )}
      <div className="panel__actions">
        <button type="submit" className="button" disabled={send.isPending || preparing} data-testid="clone-upload">
          {send.isPending ? (uploading ? "Sending…" : "Checking photos…") : "Send photos"}
        </button>
      </div>
    </form>
  );
}

function toggled(s: Set<string>, v: string): Set<string> {
  const n = new Set(s);
  if (n.has(v)) n.delete(v);
  else n.add(v);
  return n;
}

function PhotoGrid({
  photos,
  onRemove,
  selectable = false,
  selected,
  onToggle,
}: {
  photos: LocalPhoto[];
  onRemove?(key: string): void;
  selectable?: boolean;
  selected?: Set<string>;
  onToggle?(url: string): void;
}) {
  return (
    <ul className="clone-photos" aria-label="Your photos" data-testid="clone-photos">
      {photos.map((p, i) => {
        const verdict = p.verdict;
        const cls = verdict ? (verdict.ok ? " clone-photo--ok" : " clone-photo--refused") : p.state === "invalid" ? " clone-photo--refused" : "";
        const status =
          p.state === "invalid"
            ? p.problem
            : p.state === "preparing"
            ? "Preparing…"
            : verdict
            ? verdict.ok
              ? "Usable"
              : verdict.reason ?? "This photo cannot be used"
            : "Ready to send";
        const url = verdict?.ok ? verdict.image_url : null;
        return (
          <li key={p.key} className={`clone-photo${cls}`} data-testid="clone-photo" data-verdict={verdict ? (verdict.ok ? "ok" : "refused") : undefined}>
            {p.preview ? <img className="clone-photo__img" src={p.preview} alt={`Photo ${i + 1}`} /> : <div className="clone-photo__img" aria-hidden="true" />}
            {selectable && url && onToggle ? (
              <label className="clone-photo__status">
                <input type="checkbox" checked={!!selected?.has(url)} onChange={() => onToggle(url)} /> Use this photo
              </label>
            ) : (
              <p className="clone-photo__status" data-testid="clone-photo-status">
                {status}
              </p>
            )}
            {onRemove && (
              <button type="button" className="clone-photo__remove" aria-label={`Remove photo ${i + 1}`} onClick={() => onRemove(p.key)}>
                ×
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
