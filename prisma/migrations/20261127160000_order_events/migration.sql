-- Admin orders (issue 16): the order timeline (order_events), merchant tags, and indexes for the admin order search.
-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "order_events" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "actor_user_id" TEXT,
    "actor_label" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_events_order_id_created_at_idx" ON "order_events"("order_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "order_events_actor_user_id_idx" ON "order_events"("actor_user_id");

-- CreateIndex
CREATE INDEX "order_items_title_trgm_idx" ON "order_items" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_items_sku_trgm_idx" ON "order_items" USING GIN ("sku" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_items_status_order_id_idx" ON "order_items"("status", "order_id");

-- CreateIndex
CREATE INDEX "orders_email_trgm_idx" ON "orders" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "orders_financial_status_created_at_idx" ON "orders"("financial_status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_fulfillment_status_created_at_idx" ON "orders"("fulfillment_status", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_user_id_fkey" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

