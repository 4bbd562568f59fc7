-- Admin orders (issue 16): how many units of a line each fulfilment sent. A line is never split
-- into rows (Shopify line item GIDs stay the items' ids; Shopify fulfils line quantities through
-- fulfilment orders), so the sent quantity is the sum of these records.
-- CreateTable
CREATE TABLE "order_item_fulfillments" (
    "id" TEXT NOT NULL,
    "order_item_id" TEXT NOT NULL,
    "fulfillment_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "tracking_number" TEXT,
    "tracking_company" TEXT,
    "tracking_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_item_fulfillments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_item_fulfillments_fulfillment_id_order_item_id_key" ON "order_item_fulfillments"("fulfillment_id", "order_item_id");

-- CreateIndex
CREATE INDEX "order_item_fulfillments_order_item_id_idx" ON "order_item_fulfillments"("order_item_id");

-- AddForeignKey
ALTER TABLE "order_item_fulfillments" ADD CONSTRAINT "order_item_fulfillments_order_item_id_fkey" FOREIGN KEY ("order_item_id") REFERENCES "order_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
