-- CreateEnum
CREATE TYPE "PrivacyDataRequestStatus" AS ENUM ('ready', 'expired');

-- CreateTable
CREATE TABLE "staff_invitations" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "vendor_id" TEXT,
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "invited_by_id" TEXT,
    "invited_by_name" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "sent_at" TIMESTAMP(3),
    "accepted_at" TIMESTAMP(3),
    "accepted_user_id" TEXT,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "staff_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "privacy_data_requests" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "shopify_request_id" TEXT,
    "customer_id" TEXT,
    "customer_email" TEXT,
    "status" "PrivacyDataRequestStatus" NOT NULL DEFAULT 'ready',
    "storage_key" TEXT,
    "users_found" INTEGER NOT NULL DEFAULT 0,
    "size_bytes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "downloaded_at" TIMESTAMP(3),
    "expired_at" TIMESTAMP(3),

    CONSTRAINT "privacy_data_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_invitations_token_hash_key" ON "staff_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "staff_invitations_email_idx" ON "staff_invitations"("email");

-- CreateIndex
CREATE INDEX "privacy_data_requests_status_expires_at_idx" ON "privacy_data_requests"("status", "expires_at");


-- Data: admins who held every permission before privacy.manage existed keep holding every permission.
UPDATE "users" SET "permissions" = array_append("permissions", 'privacy.manage')
WHERE "role" = 'ADMIN'
  AND "permissions" @> ARRAY['catalog.import', 'catalog.edit', 'catalog.sync', 'reviews.moderate', 'orders.manage', 'returns.manage', 'drops.manage', 'ads.manage', 'media.manage', 'ai.train', 'recommendations.manage', 'admins.manage', 'apikeys.manage']::TEXT[]
  AND NOT ('privacy.manage' = ANY("permissions"));
