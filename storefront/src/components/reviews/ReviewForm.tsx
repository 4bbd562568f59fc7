/**
 * Writing a review: stars, title, text and up to 5 photos. Each photo is compressed in the browser
 * (at most 1024 px, JPEG, EXIF kept: lib/photo-compress.ts) and uploaded at once; the review is
 * sent with the uploaded photos' addresses. Errors show the server's message.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { OwnReview } from "~/contract";
import { REVIEW_BODY_MAX, REVIEW_MAX_IMAGES, REVIEW_TITLE_MAX } from "~/contract/reviews";
import { errorMessage, useApi } from "../../lib/api";
import { preparePhoto } from "../../lib/photo-compress";
import { checkReviewPhotos } from "../../lib/reviews";
import { StarInput } from "./Stars";

export interface ReviewValues {
  rating: number;
  title: string | null;
  body: string;
  images: string[];
}

interface Photo {
  key: string;
  preview: string | null;
  url: string | null;
  status: "working" | "done" | "error";
  error?: string;
}

export interface ReviewFormProps {
  productTitle: string;
  /** The name the review will show (SPEC §5). */
  authorName: string;
  submit: (values: ReviewValues) => Promise<OwnReview>;
  onSubmitted?: (review: OwnReview) => void;
  onCancel?: () => void;
  testId?: string;
}

export function ReviewForm({ productTitle, authorName, submit, onSubmitted, onCancel, testId = "review-form" }: ReviewFormProps) {
  const api = useApi();
  const uid = useId();
  const [rating, setRating] = useState(0);
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const previews = useRef<string[]>([]);

  useEffect(() => () => previews.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const update = (key: string, patch: Partial<Photo>) => setPhotos((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  async function addPhotos(files: File[]) {
    setError(null);
    const problem = checkReviewPhotos(files, photos.length);
    if (problem) {
      setError(problem);
      return;
    }
    for (const file of files) {
      const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
      setPhotos((list) => [...list, { key, preview: null, url: null, status: "working" }]);
      try {
        const prepared = await preparePhoto(file, null, { width: 0, height: 0 });
        const preview = URL.createObjectURL(prepared.file);
        previews.current.push(preview);
        update(key, { preview });
        const fd = new FormData();
        fd.append("image", prepared.file, "photo.jpg");
        const uploaded = await api.reviewsUploadImage({ body: fd });
        update(key, { url: uploaded.url, status: "done" });
      } catch (e) {
        update(key, { status: "error", error: errorMessage(e, e instanceof Error ? e.message : "This photo could not be added.") });
      }
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!rating) return setError("Choose a rating from 1 to 5 stars.");
    if (!body.trim()) return setError("Write a few words about the product.");
    if (photos.some((p) => p.status === "working")) return setError("Wait until your photos are uploaded.");
    setSending(true);
    try {
      const review = await submit({ rating, title: title.trim() || null, body: body.trim(), images: photos.filter((p) => p.status === "done" && p.url).map((p) => p.url!) });
      onSubmitted?.(review);
    } catch (err) {
      setError(errorMessage(err, "Your review could not be sent. Please try again."));
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="review-form" onSubmit={onSubmit} data-testid={testId} aria-label={`Review of ${productTitle}`}>
      <StarInput value={rating} onChange={setRating} disabled={sending} />
      <label className="field">
        <span className="field__label">Title (optional)</span>
        <input className="field__input" name="title" maxLength={REVIEW_TITLE_MAX} value={title} onChange={(e) => setTitle(e.target.value)} disabled={sending} />
      </label>
      <label className="field">
        <span className="field__label">Your review</span>
        <textarea
          className="field__input review-form__body"
          name="body"
          rows={5}
          maxLength={REVIEW_BODY_MAX}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          disabled={sending}
          placeholder="How is the fit, the fabric, the colour?"
        />
      </label>
      <div className="review-form__photos">
        <span className="field__label" id={`${uid}-photos`}>
          Photos (optional, up to {REVIEW_MAX_IMAGES})
        </span>
        {photos.length > 0 && (
          <ul className="review-form__thumbs" aria-labelledby={`${uid}-photos`}>
            {photos.map((p, i) => (
              <li key={p.key} className={`review-form__thumb review-form__thumb--${p.status}`} data-testid="review-photo" data-status={p.status}>
                {p.preview ? <img src={p.preview} alt={`Photo ${i + 1}`} width={72} height={72} /> : <span className="review-form__thumb-empty" aria-hidden="true" />}
                {p.status === "working" && <span className="review-form__thumb-note">Uploading…</span>}
                {p.status === "error" && (
                  <span className="review-form__thumb-note" role="alert">
                    {p.error}
                  </span>
                )}
                <button type="button" className="link-button" onClick={() => setPhotos((list) => list.filter((x) => x.key !== p.key))} aria-label={`Remove photo ${i + 1}`} disabled={sending}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        {photos.length < REVIEW_MAX_IMAGES && (
          <>
            <input
              ref={fileInput}
              className="visually-hidden"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              aria-label="Add photos"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = "";
                if (files.length) void addPhotos(files);
              }}
            />
            <button type="button" className="button button--ghost" onClick={() => fileInput.current?.click()} disabled={sending}>
              Add photos
            </button>
          </>
        )}
      </div>
      <p className="review-form__as">
        Your review will be shown as <strong>{authorName}</strong> once our team has checked it.
      </p>
      {error && (
        <p className="form-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      <div className="review-form__actions">
        <button type="submit" className="button" disabled={sending}>
          {sending ? "Sending…" : "Submit review"}
        </button>
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={sending}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
