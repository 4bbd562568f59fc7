-- AlterTable
ALTER TABLE "products" ADD COLUMN     "search_vector" tsvector;

-- CreateTable
CREATE TABLE "product_popularity" (
    "product_id" TEXT NOT NULL,
    "view_count" INTEGER NOT NULL DEFAULT 0,
    "view_score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "purchase_count" INTEGER NOT NULL DEFAULT 0,
    "purchase_score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "last_viewed_at" TIMESTAMP(3),
    "last_purchased_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_popularity_pkey" PRIMARY KEY ("product_id")
);

-- CreateTable
CREATE TABLE "product_co_occurrences" (
    "kind" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "other_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_co_occurrences_pkey" PRIMARY KEY ("kind","product_id","other_id")
);

-- CreateIndex
CREATE INDEX "product_popularity_view_score_idx" ON "product_popularity"("view_score" DESC);

-- CreateIndex
CREATE INDEX "product_popularity_purchase_score_idx" ON "product_popularity"("purchase_score" DESC);

-- CreateIndex
CREATE INDEX "product_co_occurrences_kind_product_id_score_idx" ON "product_co_occurrences"("kind", "product_id", "score" DESC);

-- CreateIndex
CREATE INDEX "product_co_occurrences_other_id_idx" ON "product_co_occurrences"("other_id");

-- CreateIndex
CREATE INDEX "products_search_vector_idx" ON "products" USING GIN ("search_vector");

-- AddForeignKey
ALTER TABLE "product_popularity" ADD CONSTRAINT "product_popularity_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_co_occurrences" ADD CONSTRAINT "product_co_occurrences_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_co_occurrences" ADD CONSTRAINT "product_co_occurrences_other_id_fkey" FOREIGN KEY ("other_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text document of a product, kept by a trigger so every writer (sync, webhooks, admin
-- edits, imports, seed) gets it without code of its own. Weights: title A, product type and
-- tags B, vendor C, description D. The 'english' configuration stems ("shirts" -> "shirt").
CREATE FUNCTION products_search_vector_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW."productType", '') || ' ' || array_to_string(coalesce(NEW.tags, '{}'::text[]), ' ')), 'B') ||
    setweight(to_tsvector('english', coalesce(NEW.vendor, '')), 'C') ||
    setweight(to_tsvector('english', coalesce(NEW.description, '')), 'D');
  RETURN NEW;
END
$$;

CREATE TRIGGER products_search_vector
  BEFORE INSERT OR UPDATE OF title, "productType", tags, vendor, description ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_search_vector_update();

UPDATE "products" SET title = title;
