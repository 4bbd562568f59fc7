-- Vendor portal (issue 17): per product and store-time-zone calendar day, the measures the vendor
-- pages read (views, saves, try-ons, add-to-carts, orders, units, revenue, returns, refunds). Kept
-- incrementally by the services that write the events (one upsert each), and rebuilt from the event
-- tables after a time-zone change or a seed (app/services/vendor-stats/daily-stats.server.ts), so the
-- pages read a few hundred rows instead of scanning millions of view events.
-- No foreign key to products: order lines keep products that left the catalogue, and their history stays.
-- CreateTable
CREATE TABLE "product_daily_stats" (
    "product_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "vendor_id" TEXT,
    "views" INTEGER NOT NULL DEFAULT 0,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "try_ons" INTEGER NOT NULL DEFAULT 0,
    "add_to_carts" INTEGER NOT NULL DEFAULT 0,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "units" INTEGER NOT NULL DEFAULT 0,
    "revenue" NUMERIC(14,2) NOT NULL DEFAULT 0,
    "returned_units" INTEGER NOT NULL DEFAULT 0,
    "refunds" NUMERIC(14,2) NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),

    CONSTRAINT "product_daily_stats_pkey" PRIMARY KEY ("product_id","day")
);

-- CreateIndex
CREATE INDEX "product_daily_stats_vendor_id_day_idx" ON "product_daily_stats"("vendor_id", "day");

-- CreateIndex
CREATE INDEX "product_daily_stats_day_idx" ON "product_daily_stats"("day");
