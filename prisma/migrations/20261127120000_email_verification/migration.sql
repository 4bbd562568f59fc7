-- Email verification: orders are linked by email only to an address its owner proved.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "email_verified_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "email_verifications" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_verifications_token_hash_key" ON "email_verifications"("token_hash");

-- CreateIndex
CREATE INDEX "email_verifications_user_id_created_at_idx" ON "email_verifications"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data. The demo accounts (the reserved demo.local domain, refused outside local mode) count as
-- verified, so the demo shopper keeps their orders.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "email" LIKE '%@demo.local';

-- Orders linked to a user whose email nobody proved were linked by an unchecked email (a lead or a
-- registration could claim anyone's address): unlink them, and their purchase events, unless
-- Shopify's customer id proves the link. The owner gets them back by verifying the address.
WITH "unproven" AS (
    UPDATE "orders" AS o SET "user_id" = NULL
    FROM "users" AS u
    WHERE o."user_id" = u."id"
      AND u."email_verified_at" IS NULL
      AND (o."shopify_customer_id" IS NULL OR u."shopify_customer_id" IS NULL OR o."shopify_customer_id" <> u."shopify_customer_id")
    RETURNING o."id"
)
UPDATE "product_purchase_events" AS e SET "user_id" = NULL FROM "unproven" WHERE e."order_id" = "unproven"."id";
