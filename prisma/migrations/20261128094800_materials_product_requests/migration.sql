-- AlterEnum: the product request states of issue 19 (pending, in review, sourced, declined);
-- renamed in place so existing rows keep their meaning.
ALTER TYPE "ProductRequestStatus" RENAME VALUE 'accepted' TO 'in_review';
ALTER TYPE "ProductRequestStatus" RENAME VALUE 'rejected' TO 'declined';
ALTER TYPE "ProductRequestStatus" RENAME VALUE 'fulfilled' TO 'sourced';

-- AlterTable
ALTER TABLE "material_categories" ADD COLUMN     "keywords" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "product_requests" ADD COLUMN     "import_batch_id" TEXT,
ADD COLUMN     "sourced_product_id" TEXT,
ADD COLUMN     "status_changed_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "product_materials" (
    "product_id" TEXT NOT NULL,
    "material_category_id" TEXT NOT NULL,
    "percent" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_materials_pkey" PRIMARY KEY ("product_id","material_category_id")
);

-- CreateIndex
CREATE INDEX "product_materials_material_category_id_idx" ON "product_materials"("material_category_id");

-- AddForeignKey
ALTER TABLE "product_materials" ADD CONSTRAINT "product_materials_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_materials" ADD CONSTRAINT "product_materials_material_category_id_fkey" FOREIGN KEY ("material_category_id") REFERENCES "material_categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
