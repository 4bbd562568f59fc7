-- Drops: a teaser for shoppers, the hold-back choice, and the product publish holds (docs/drops.md).
ALTER TABLE "drops" ADD COLUMN "teaser" TEXT;
ALTER TABLE "drops" ADD COLUMN "hold_back_live" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "product_publish_holds" (
    "product_id" TEXT NOT NULL,
    "drop_id" TEXT,
    "publish_at" TIMESTAMP(3) NOT NULL,
    "prior_published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_publish_holds_pkey" PRIMARY KEY ("product_id")
);

CREATE INDEX "product_publish_holds_drop_id_idx" ON "product_publish_holds"("drop_id");

ALTER TABLE "product_publish_holds" ADD CONSTRAINT "product_publish_holds_drop_id_fkey" FOREIGN KEY ("drop_id") REFERENCES "drops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
