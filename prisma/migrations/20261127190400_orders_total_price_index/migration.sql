-- Admin order list sorted by total (issue 16): the orders walked in (total, id) order, so a page
-- sorted by total, and a broad search in that sort, stop after a page + 1 instead of sorting every
-- order. The index is read backwards for the ascending sort.
-- CreateIndex
CREATE INDEX "orders_total_price_id_idx" ON "orders"("total_price" DESC, "id" DESC);
