/**
 * A try-on in a list (My try-ons, Saved try-ons): its picture (a placeholder when it has none,
 * SPEC §9), the product and the clone, with save/unsave and "delete image" (confirmed).
 */
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../../lib/api";
import { productPath } from "../../lib/product-path";
import { SAVED_TRYONS_LIST_KEY, USER_TRYONS_LIST_KEY } from "../../lib/saved-tryons";
import { tryOnBusy, tryOnImage, tryOnKey, type TryOn } from "../../lib/tryons";
import { formatDate } from "../../lib/orders";
import { ConfirmDialog } from "../ConfirmDialog";
import { TryOnImage } from "./TryOnImage";
import { AddToCartQuick } from "../AddToCartQuick";
import { TryOnSaveButton } from "./TryOnPanel";
import "../../tryon.css";

const STATUS: Record<TryOn["status"], string> = {
  queued: "Waiting to start",
  processing: "Being made",
  completed: "Ready",
  failed: "Did not work",
};

export function TryOnCard({ tryon, testId = "tryon-card" }: { tryon: TryOn; testId?: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const image = tryOnImage(tryon);
  const productTitle = tryon.product?.title ?? "A product no longer sold";
  const remove = useMutation({
    mutationFn: () => api.tryonsCloneDeleteImage({ params: { id: tryon.clone_id }, body: { imageUrl: image ?? "" } }),
    onSuccess: () => {
      setConfirming(false);
      qc.removeQueries({ queryKey: tryOnKey(tryon.id) });
      void qc.invalidateQueries({ queryKey: USER_TRYONS_LIST_KEY });
      void qc.invalidateQueries({ queryKey: SAVED_TRYONS_LIST_KEY });
    },
  });
  return (
    <li className="tryon-card" data-testid={testId} data-tryon-id={tryon.id} data-status={tryon.status}>
      {tryon.product ? (
        <Link to={productPath(tryon.product)} aria-label={`${productTitle}: open the product`}>
          <TryOnImage url={image} alt={`${productTitle} on ${tryon.clone?.name ?? "your clone"}`} className="tryon-card__img" testId="tryon-card-image" />
        </Link>
      ) : (
        <TryOnImage url={image} alt={productTitle} className="tryon-card__img" testId="tryon-card-image" />
      )}
      <h3 className="tryon-card__title">{productTitle}</h3>
      <p className="tryon-card__meta">
        {tryon.clone ? `On ${tryon.clone.name} · ` : ""}
        <time dateTime={tryon.created_at}>{formatDate(tryon.created_at)}</time>
        {tryon.status !== "completed" ? ` · ${STATUS[tryon.status]}${tryOnBusy(tryon) && tryon.progress ? ` (${tryon.progress}%)` : ""}` : ""}
      </p>
      {tryon.status === "failed" && tryon.error && <p className="clone-card__error">{tryon.error}</p>}
      <div className="tryon-card__actions">
        {tryon.status === "completed" && <TryOnSaveButton tryonId={tryon.id} />}
        {tryon.status === "completed" && tryon.product && <AddToCartQuick product={tryon.product} label="Add this to cart" testId="tryon-add-to-cart" />}
        {image && (
          <button
            type="button"
            className="button button--small button--ghost button--danger-ghost"
            onClick={() => setConfirming(true)}
            data-testid="tryon-delete"
          >
            Delete image
          </button>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title="Delete this try-on image?"
          confirmLabel="Delete image"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
          testId="tryon-delete-dialog"
        >
          <p>
            The picture of {productTitle} is deleted{tryon.generated_images.length <= 1 ? ", and the try-on with it" : ""}. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
