/**
 * Photo search (`/photo-search`): choose a photo or take one with the camera, crop it, and find
 * products that look like it. The photo is compressed in the browser to at most 1024 px on the
 * longer side, keeping its EXIF data (lib/photo-compress.ts), then uploaded. Results follow the
 * gender preference. Signed-in shoppers see their last 10 photo searches.
 */
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { ProductCard as ProductCardData } from "~/contract";
import { errorMessage } from "../lib/api";
import { useGender, GENDER_LABELS } from "../lib/gender";
import { useSession } from "../lib/session";
import { fullRect, type Rect, type Size } from "../lib/crop";
import { formatBytes, validatePhotoFile } from "../lib/photo";
import { loadImage, preparePhoto } from "../lib/photo-compress";
import { ProductOpenerProvider, useProductModalRoute } from "../lib/product-opener";
import { VISION_ENTRIES_KEY, usePhotoSearchApi, type PhotoSearchAnswer } from "../lib/photo-search-api";
import { PhotoCropper } from "../components/PhotoCropper";
import { ProductCard } from "../components/ProductCard";
import { ProductModal } from "../components/ProductModal";
import { Spinner } from "../components/FeedStatus";
import { PhotoSearchHistory } from "../components/PhotoSearchHistory";
import { useStaticPageMeta } from "../lib/use-page-meta";

type Step =
  | { kind: "pick" }
  | { kind: "crop"; file: File; url: string; size: Size }
  | { kind: "working"; url: string; phase: "compress" | "upload"; percent: number }
  | { kind: "results"; url: string; sentUrl: string; answer: PhotoSearchAnswer; sentBytes: number; originalBytes: number; sentSize: string };

export function PhotoSearch() {
  const { gender } = useGender();
  const { signedIn } = useSession();
  const modal = useProductModalRoute();
  const photoApi = usePhotoSearchApi();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: "pick" });
  const [rect, setRect] = useState<Rect | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const pickRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useStaticPageMeta();

  // Object URLs are released when the photo changes or the page closes.
  const url = step.kind === "pick" ? null : step.url;
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  const sentUrl = step.kind === "results" ? step.sentUrl : null;
  useEffect(() => () => {
    if (sentUrl) URL.revokeObjectURL(sentUrl);
  }, [sentUrl]);
  useEffect(() => () => abort.current?.abort(), []);

  async function accept(file: File | null | undefined) {
    setError(null);
    if (!file) return;
    const problem = validatePhotoFile(file);
    if (problem) {
      setError(problem);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    try {
      const img = await loadImage(objectUrl);
      const size = { width: img.naturalWidth, height: img.naturalHeight };
      if (!size.width || !size.height) throw new Error("This photo could not be read. Choose another JPEG, PNG or WebP image.");
      setRect(fullRect(size));
      setStep({ kind: "crop", file, url: objectUrl, size });
    } catch (e) {
      URL.revokeObjectURL(objectUrl);
      setError(e instanceof Error ? e.message : "This photo could not be read.");
    }
  }

  async function search() {
    if (step.kind !== "crop" || !rect) return;
    const { file, url: photoUrl, size } = step;
    setError(null);
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    // The crop's object URL stays alive through the search: it is the thumbnail of the results.
    setStep({ kind: "working", url: photoUrl, phase: "compress", percent: 0 });
    try {
      const prepared = await preparePhoto(file, rect, size, (percent) => setStep((s) => (s.kind === "working" ? { ...s, percent } : s)), controller.signal);
      setStep({ kind: "working", url: photoUrl, phase: "upload", percent: 100 });
      const answer = await photoApi.search(prepared.file, gender, controller.signal);
      if (controller.signal.aborted) return;
      if (answer.searchEntryId) void queryClient.invalidateQueries({ queryKey: VISION_ENTRIES_KEY });
      const sent = await loadImage(URL.createObjectURL(prepared.file));
      setStep({
        kind: "results",
        url: photoUrl,
        sentUrl: sent.src,
        answer,
        sentBytes: prepared.bytes,
        originalBytes: prepared.originalBytes,
        sentSize: `${sent.naturalWidth} × ${sent.naturalHeight} px`,
      });
      headingRef.current?.focus();
    } catch (e) {
      if (controller.signal.aborted) return;
      setError(errorMessage(e, e instanceof Error && e.message ? e.message : "The photo search did not work. Please try again."));
      setStep({ kind: "crop", file, url: photoUrl, size });
    }
  }

  function reset() {
    abort.current?.abort();
    setError(null);
    setRect(null);
    setStep({ kind: "pick" });
    if (pickRef.current) pickRef.current.value = "";
  }

  const onPick = (e: ChangeEvent<HTMLInputElement>) => void accept(e.target.files?.[0]);
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    void accept(e.dataTransfer.files?.[0]);
  };

  return (
    <ProductOpenerProvider opener={modal.open}>
      <section className="page photo-page" aria-labelledby="photo-heading" data-testid="photo-search">
        <div className="page__head">
          <h1 id="photo-heading" className="page__title" ref={headingRef} tabIndex={-1}>
            Search with a photo
          </h1>
        </div>
        <p className="photo-page__intro">
          Take or choose a photo of something you like: we will find similar pieces
          {gender !== "both" ? ` in ${GENDER_LABELS[gender].toLowerCase()}` : ""}.
        </p>

        {error && (
          <p className="form-error photo-page__error" role="alert" data-testid="photo-error">
            {error}
          </p>
        )}

        {step.kind === "pick" && (
          <div
            className={`dropzone${dragging ? " dropzone--over" : ""}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="photo-dropzone"
          >
            <svg className="dropzone__icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
              <circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
            </svg>
            <p className="dropzone__text">Drop a photo here, or</p>
            <div className="dropzone__actions">
              <label className="button">
                Choose a photo
                <input ref={pickRef} className="visually-hidden" type="file" accept="image/*" onChange={onPick} data-testid="photo-file" />
              </label>
              <label className="button button--ghost">
                Take a photo
                <input className="visually-hidden" type="file" accept="image/*" capture="environment" onChange={onPick} data-testid="photo-camera" />
              </label>
            </div>
            <p className="dropzone__hint">JPEG, PNG or WebP, up to 25 MB. Photos are made smaller before they are sent.</p>
          </div>
        )}

        {step.kind === "crop" && rect && (
          <div className="photo-crop" data-testid="photo-crop-step">
            <h2 className="section-title">Frame the piece you are looking for</h2>
            <PhotoCropper src={step.url} size={step.size} rect={rect} onChange={setRect} />
            <div className="photo-crop__actions">
              <button type="button" className="button" onClick={() => void search()} data-testid="photo-search-submit">
                Search
              </button>
              <button type="button" className="button button--ghost" onClick={() => setRect(fullRect(step.size))}>
                Use the whole photo
              </button>
              <button type="button" className="link-button" onClick={reset}>
                Choose another photo
              </button>
            </div>
          </div>
        )}

        {step.kind === "working" && (
          <div className="photo-working" data-testid="photo-working">
            <img className="photo-thumb" src={step.url} alt="Your photo" />
            <div className="photo-working__status">
              <Spinner label={step.phase === "compress" ? `Preparing your photo… ${Math.round(step.percent)}%` : "Finding similar products…"} />
              <progress className="photo-progress" max={100} value={step.phase === "compress" ? step.percent : undefined} aria-label="Photo search progress" />
              <button type="button" className="link-button" onClick={reset}>
                Cancel
              </button>
            </div>
          </div>
        )}

        {step.kind === "results" && (
          <PhotoResults step={step} onAgain={reset} />
        )}

        {signedIn ? (
          <PhotoSearchHistory />
        ) : (
          <p className="photo-page__history-hint" data-testid="photo-history-signin">
            <Link to="/login">Sign in</Link> to keep your photo searches.
          </p>
        )}
      </section>
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}

/** The results of a photo search; exported for the render tests. */
export function PhotoResults({ step, onAgain }: { step: Extract<Step, { kind: "results" }>; onAgain(): void }) {
  const products: ProductCardData[] = step.answer.results;
  // Cards already show the variant in the photo's colour; say so when at least one does.
  const inColour = step.answer.colour && products.some((p) => p.matchedVariant) ? step.answer.colour.name : null;
  return (
    <div className="photo-results" data-testid="photo-results" data-count={products.length}>
      <div className="photo-results__head">
        <img className="photo-thumb" src={step.sentUrl} alt="The photo you searched with" data-testid="photo-sent" />
        <div>
          <h2 className="section-title photo-results__title">
            {products.length === 0 ? "No similar products found" : `${products.length} similar ${products.length === 1 ? "product" : "products"}`}
          </h2>
          <p className="photo-results__meta">
            Sent {step.sentSize}, {formatBytes(step.sentBytes)} (from {formatBytes(step.originalBytes)}).
          </p>
          {inColour && (
            <p className="photo-results__meta" data-testid="photo-colour">
              Shown in {inColour.toLowerCase()}, the colour of your photo, where a piece comes in it.
            </p>
          )}
          <button type="button" className="button button--ghost button--small" onClick={onAgain} data-testid="photo-again">
            Search another photo
          </button>
        </div>
      </div>
      {products.length === 0 ? (
        <p className="state__text">Try framing a single piece of clothing, in good light.</p>
      ) : (
        <div className="grid">
          {products.map((p) => (
            <ProductCard key={p.id} product={p} />
          ))}
        </div>
      )}
    </div>
  );
}
