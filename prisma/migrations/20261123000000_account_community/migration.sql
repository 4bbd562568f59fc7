-- AlterTable
ALTER TABLE "notification_requests" ADD COLUMN     "checked_until" TIMESTAMP(3),
ADD COLUMN     "search_filters" JSONB;

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_by_id" TEXT,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_revoked_at_idx" ON "api_keys"("revoked_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Saved searches written before these columns kept {"v":1,"text":…,"filters":{…}} in search_query
-- and the check watermark in sent_at.
UPDATE "notification_requests"
SET "search_filters" = ("search_query"::jsonb) -> 'filters',
    "checked_until" = "sent_at",
    "search_query" = ("search_query"::jsonb) ->> 'text'
WHERE "kind" = 'search' AND "search_query" LIKE '{"v":1,%';

-- CreateIndex
CREATE INDEX "product_options_values_idx" ON "product_options" USING GIN ("values");

-- Search reads the full-text index on every request and products change rarely: entries go
-- straight into the index instead of a pending list that every search would scan until the
-- next vacuum (Prisma does not model index storage parameters).
ALTER INDEX "products_search_vector_idx" SET (fastupdate = off);

-- DropIndex
DROP INDEX "product_embeddings_kind_idx";

-- CreateIndex
CREATE INDEX "product_embeddings_kind_updated_at_idx" ON "product_embeddings"("kind", "updated_at");

-- AlterTable
ALTER TABLE "import_jobs" ADD COLUMN     "result" JSONB,
ADD COLUMN     "step" TEXT;
