-- Admin orders (issue 16): the store's fulfilment of each sent item, for tracking updates.
-- AlterTable
ALTER TABLE "order_items" ADD COLUMN     "fulfillment_id" TEXT;

-- CreateIndex
CREATE INDEX "order_items_fulfillment_id_idx" ON "order_items"("fulfillment_id");
