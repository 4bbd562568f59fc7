-- Product ads (issue 18, docs/product-ads.md): the ad's call to action, budget, author, the ads
-- platform's ids and error, metric totals; requests with several products, a budget and dates;
-- features with a code and a kind; the timeline, the daily metrics and the creative candidates.
ALTER TABLE "product_ads" ADD COLUMN "call_to_action" TEXT NOT NULL DEFAULT 'SHOP_NOW';
ALTER TABLE "product_ads" ADD COLUMN "destination_url" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "daily_budget" DECIMAL(12,2) NOT NULL DEFAULT 10;
ALTER TABLE "product_ads" ADD COLUMN "created_by_id" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "meta_campaign_id" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "meta_adset_id" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "meta_creative_id" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "meta_error" TEXT;
ALTER TABLE "product_ads" ADD COLUMN "reach" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "product_ads" ADD COLUMN "purchase_value" DECIMAL(12,2) NOT NULL DEFAULT 0;
ALTER TABLE "product_ads" ADD CONSTRAINT "product_ads_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "product_ad_requests" ADD COLUMN "product_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "product_ad_requests" ADD COLUMN "daily_budget" DECIMAL(12,2);
ALTER TABLE "product_ad_requests" ADD COLUMN "currencyCode" TEXT NOT NULL DEFAULT 'USD';
ALTER TABLE "product_ad_requests" ADD COLUMN "start_date" DATE;
ALTER TABLE "product_ad_requests" ADD COLUMN "end_date" DATE;
ALTER TABLE "product_ad_requests" ADD COLUMN "created_by_id" TEXT;
ALTER TABLE "product_ad_requests" ADD CONSTRAINT "product_ad_requests_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
UPDATE "product_ad_requests" SET "product_ids" = ARRAY["product_id"] WHERE "product_id" IS NOT NULL;

ALTER TABLE "product_ad_features" ADD COLUMN "code" TEXT;
ALTER TABLE "product_ad_features" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'extra';
UPDATE "product_ad_features" SET "code" = 'extra.' || "id" WHERE "code" IS NULL;
ALTER TABLE "product_ad_features" ALTER COLUMN "code" SET NOT NULL;
CREATE UNIQUE INDEX "product_ad_features_code_key" ON "product_ad_features"("code");

CREATE TABLE "product_ad_events" (
    "id" TEXT NOT NULL,
    "ad_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "from_status" "ProductAdStatus",
    "to_status" "ProductAdStatus",
    "author_id" TEXT,
    "text" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "product_ad_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "product_ad_events_ad_id_created_at_idx" ON "product_ad_events"("ad_id", "created_at");
ALTER TABLE "product_ad_events" ADD CONSTRAINT "product_ad_events_ad_id_fkey" FOREIGN KEY ("ad_id") REFERENCES "product_ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "product_ad_events" ADD CONSTRAINT "product_ad_events_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "product_ad_metrics_daily" (
    "ad_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "spend" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "purchases" INTEGER NOT NULL DEFAULT 0,
    "purchase_value" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "synced_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "product_ad_metrics_daily_pkey" PRIMARY KEY ("ad_id","date")
);
CREATE INDEX "product_ad_metrics_daily_date_idx" ON "product_ad_metrics_daily"("date");
ALTER TABLE "product_ad_metrics_daily" ADD CONSTRAINT "product_ad_metrics_daily_ad_id_fkey" FOREIGN KEY ("ad_id") REFERENCES "product_ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "product_ad_creatives" (
    "id" TEXT NOT NULL,
    "ad_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "image_url" TEXT,
    "headline" TEXT,
    "primary_text" TEXT,
    "status" TEXT NOT NULL DEFAULT 'ready',
    "error" TEXT,
    "job_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "product_ad_creatives_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "product_ad_creatives_ad_id_created_at_idx" ON "product_ad_creatives"("ad_id", "created_at");
ALTER TABLE "product_ad_creatives" ADD CONSTRAINT "product_ad_creatives_ad_id_fkey" FOREIGN KEY ("ad_id") REFERENCES "product_ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
