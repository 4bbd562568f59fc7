-- Local carts (issue 15): the local Storefront endpoint's cart store in the embedded default.

-- CreateTable
CREATE TABLE "local_carts" (
    "id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "note" TEXT,
    "email" TEXT,
    "country_code" TEXT,
    "currency_code" TEXT NOT NULL DEFAULT 'USD',
    "discount_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "local_carts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "local_cart_lines" (
    "id" TEXT NOT NULL,
    "cart_id" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '[]',
    "attributes_key" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "local_cart_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "local_cart_lines_cart_id_position_idx" ON "local_cart_lines"("cart_id", "position");

-- AddForeignKey
ALTER TABLE "local_cart_lines" ADD CONSTRAINT "local_cart_lines_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "local_carts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
