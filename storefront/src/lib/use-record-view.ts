/**
 * Recording a product view: the recently viewed list (local storage) and the server's view
 * (`recommendationsViewProduct`, which feeds "customers also viewed" and for-you). Once per
 * product per mount; a failed server call is not the shopper's problem and is ignored.
 */
import { useEffect, useRef } from "react";
import type { ProductCard } from "~/contract";
import { useApi } from "./api";
import { useSession } from "./session";
import { useRecordRecentlyViewed } from "./use-recently-viewed";

export function useRecordView(product: ProductCard | null | undefined): void {
  const api = useApi();
  const { user } = useSession();
  const record = useRecordRecentlyViewed();
  const local = useRef<string | null>(null);
  const server = useRef<string | null>(null);
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!product || local.current === product.id) return;
    local.current = product.id;
    record(product);
  }, [product, record]);

  // The session may still be starting when the product arrives: record the view once it is there.
  useEffect(() => {
    if (!product || !userId || server.current === product.id) return;
    server.current = product.id;
    api.recommendationsViewProduct({ body: { product_id: product.id, session_id: userId } }).catch(() => undefined);
  }, [product, userId, api]);
}
