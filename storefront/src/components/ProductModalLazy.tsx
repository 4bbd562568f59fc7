/**
 * The product modal, loaded when a shopper first opens one: its details, reviews, try-on and
 * related products are not part of a feed page's first load (route-level code splitting).
 */
import { Suspense } from "react";
import { lazyComponent } from "../lib/lazy-component";

const Modal = lazyComponent(async () => (await import("./ProductModal")).ProductModal);

export function ProductModal(props: { productId: string; onClose(): void }) {
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
