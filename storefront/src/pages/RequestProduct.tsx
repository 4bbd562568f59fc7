/**
 * Request a product (`/request-a-product`; SPEC §3 product request form, §5 its rules): brand and
 * garment (required), a link (a web address or empty), a photo (a file, compressed to 1024 px
 * before upload like every photo, or the web address of one) and, for guests, an email to tell
 * them when it is found. Sent as multipart through the one client (`productRequestsCreate`); the
 * server checks the same rules and answers its messages, shown under the form.
 * `?brand=` / `?garment=` prefill it (search's "nothing found" link passes the query as garment).
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import type { OwnProductRequest } from "~/contract/product-requests";
import { errorMessage, useApi } from "../lib/api";
import { preparePhoto } from "../lib/photo-compress";
import { useSession } from "../lib/session";
import { usePageMeta } from "../lib/use-page-meta";
import { MY_PRODUCT_REQUESTS_KEY } from "../lib/product-requests";

const isWebAddress = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === "https:" || u.protocol === "http:") && !!u.hostname;
  } catch {
    return false;
  }
};

/** The form's own checks, with the server's words, so most mistakes are shown before sending. */
export function checkRequestForm(f: { brand: string; garment: string; link: string; imageUrl: string; email: string; needsEmail: boolean }): string | null {
  if (!f.brand.trim()) return "Brand is required";
  if (!f.garment.trim()) return "Garment is required";
  if (f.link.trim() && !isWebAddress(f.link.trim())) return "Link must be a web address (https://…) or left empty";
  if (f.imageUrl.trim() && !isWebAddress(f.imageUrl.trim())) return "Image must be an uploaded photo or a web address (https://…)";
  if (f.needsEmail && !f.email.trim()) return "Email is required so we can tell you when we find it";
  return null;
}

export function RequestProduct() {
  usePageMeta({ title: "Request a product", description: "Tell us the brand and the garment you are looking for: we will try to find it and email you when it is in the store.", canonicalPath: "/request-a-product" });
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn } = useSession();
  const [params] = useSearchParams();
  const [brand, setBrand] = useState(() => params.get("brand") ?? "");
  const [garment, setGarment] = useState(() => params.get("garment") ?? "");
  const [link, setLink] = useState("");
  const [imageUrl, setImageUrl] = useState("");
  const [email, setEmail] = useState("");
  const [photo, setPhoto] = useState<{ file: File; preview: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<OwnProductRequest | null>(null);
  const previews = useRef<string[]>([]);
  useEffect(() => () => previews.current.forEach((p) => URL.revokeObjectURL(p)), []);
  const needsEmail = !signedIn;

  const send = useMutation({
    mutationFn: async () => {
      const fd = new FormData();
      fd.set("brand", brand.trim());
      fd.set("garment", garment.trim());
      fd.set("link", link.trim());
      if (needsEmail) fd.set("email", email.trim());
      if (photo) {
        const prepared = await preparePhoto(photo.file, null, { width: 0, height: 0 });
        fd.set("image", prepared.file, "photo.jpg");
      } else if (imageUrl.trim()) fd.set("image", imageUrl.trim());
      return api.productRequestsCreate({ body: fd });
    },
    onSuccess: (r) => {
      setSent(r);
      void queryClient.invalidateQueries({ queryKey: MY_PRODUCT_REQUESTS_KEY });
    },
    onError: (e) => setError(errorMessage(e, "Your request could not be sent. Please try again.")),
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const problem = checkRequestForm({ brand, garment, link, imageUrl: photo ? "" : imageUrl, email, needsEmail });
    if (problem) return setError(problem);
    send.mutate();
  }

  if (sent) {
    return (
      <main className="page request-product" data-testid="request-product-page">
        <h1>Request a product</h1>
        <div role="status" className="request-product__done" data-testid="request-product-done">
          <p>
            Thanks! We are looking for <strong>{`${sent.brand} ${sent.garment}`}</strong> and will email {signedIn ? (user?.email ?? "you") : email.trim() || "you"} when we find it.
          </p>
          <p>{signedIn ? <Link to="/account">See your requests in your account</Link> : null}</p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setSent(null);
              setBrand("");
              setGarment("");
              setLink("");
              setImageUrl("");
              setPhoto(null);
            }}
          >
            Request another product
          </button>
        </div>
      </main>
    );
  }

  const busy = send.isPending;
  return (
    <main className="page request-product" data-testid="request-product-page">
      <h1>Request a product</h1>
      <p>Can't find something? Tell us the brand and the garment: we will try to source it and email you when it is in the store.</p>
      <form onSubmit={onSubmit} noValidate aria-label="Request a product" data-testid="request-product-form">
        <label className="field">
          <span className="field__label">Brand</span>
          <input className="field__input" name="brand" required maxLength={120} value={brand} onChange={(e) => setBrand(e.target.value)} disabled={busy} />
        </label>
        <label className="field">
          <span className="field__label">Garment</span>
          <input className="field__input" name="garment" required maxLength={200} placeholder="e.g. wool overshirt in navy" value={garment} onChange={(e) => setGarment(e.target.value)} disabled={busy} />
        </label>
        <label className="field">
          <span className="field__label">Link (optional)</span>
          <input className="field__input" name="link" type="url" inputMode="url" maxLength={2000} placeholder="https://…" value={link} onChange={(e) => setLink(e.target.value)} disabled={busy} />
        </label>
        <fieldset className="field">
          <legend className="field__label">Photo (optional)</legend>
          {photo ? (
            <div className="request-product__photo">
              <img src={photo.preview} alt="Your photo" width={96} height={96} style={{ objectFit: "cover" }} />
              <button type="button" className="button button--ghost button--small" onClick={() => setPhoto(null)} disabled={busy}>
                Remove photo
              </button>
            </div>
          ) : (
            <>
              <input
                type="file"
                name="image"
                accept="image/jpeg,image/png,image/webp"
                aria-label="Upload a photo"
                disabled={busy}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  const preview = URL.createObjectURL(file);
                  previews.current.push(preview);
                  setPhoto({ file, preview });
                }}
              />
              <input className="field__input" name="image_url" type="url" inputMode="url" aria-label="Or the web address of a photo" placeholder="or the web address of a photo: https://…" value={imageUrl} onChange={(e) => setImageUrl(e.target.value)} disabled={busy} />
            </>
          )}
        </fieldset>
        {needsEmail ? (
          <label className="field">
            <span className="field__label">Email</span>
            <input className="field__input" name="email" type="email" autoComplete="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} disabled={busy} />
          </label>
        ) : null}
        {error ? (
          <p className="form-error" role="alert" data-testid="request-product-error">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Sending…" : "Send request"}
        </button>
      </form>
    </main>
  );
}
