-- Issue 19: curated looks ("complete the look") beside shoppers' generated outfits, decided proposals, looks saved to collections.
-- CreateEnum
CREATE TYPE "OutfitSource" AS ENUM ('curated', 'proposed', 'generated');

-- CreateEnum
CREATE TYPE "OutfitStatus" AS ENUM ('draft', 'published', 'archived');

-- AlterTable
ALTER TABLE "outfit_training_data" ADD COLUMN     "proposal_key" TEXT;

-- AlterTable
ALTER TABLE "outfits" ADD COLUMN     "created_by_id" TEXT,
ADD COLUMN     "description" TEXT,
ADD COLUMN     "published_at" TIMESTAMP(3),
ADD COLUMN     "sort_order" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "source" "OutfitSource" NOT NULL DEFAULT 'generated',
ADD COLUMN     "status" "OutfitStatus" NOT NULL DEFAULT 'draft',
ADD COLUMN     "target_gender" "TargetGender" NOT NULL DEFAULT 'both';

-- CreateTable
CREATE TABLE "user_collection_outfits" (
    "user_collection_id" TEXT NOT NULL,
    "outfit_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_collection_outfits_pkey" PRIMARY KEY ("user_collection_id","outfit_id")
);

-- CreateIndex
CREATE INDEX "user_collection_outfits_user_collection_id_position_idx" ON "user_collection_outfits"("user_collection_id", "position");

-- CreateIndex
CREATE INDEX "user_collection_outfits_outfit_id_idx" ON "user_collection_outfits"("outfit_id");

-- CreateIndex
CREATE INDEX "outfit_training_data_proposal_key_idx" ON "outfit_training_data"("proposal_key");

-- CreateIndex
CREATE INDEX "outfits_source_status_target_gender_sort_order_idx" ON "outfits"("source", "status", "target_gender", "sort_order");

-- CreateIndex
CREATE INDEX "outfits_product_ids_idx" ON "outfits" USING GIN ("product_ids");

-- AddForeignKey
ALTER TABLE "user_collection_outfits" ADD CONSTRAINT "user_collection_outfits_user_collection_id_fkey" FOREIGN KEY ("user_collection_id") REFERENCES "user_collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_collection_outfits" ADD CONSTRAINT "user_collection_outfits_outfit_id_fkey" FOREIGN KEY ("outfit_id") REFERENCES "outfits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outfits" ADD CONSTRAINT "outfits_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
