-- CreateEnum
CREATE TYPE "ImageAiRequestStatus" AS ENUM ('queued', 'in_progress', 'completed', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "tryons" ADD COLUMN     "progress" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "image_ai_requests" (
    "id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "status" "ImageAiRequestStatus" NOT NULL DEFAULT 'queued',
    "provider_request_id" TEXT,
    "input" JSONB NOT NULL,
    "output" JSONB,
    "error" TEXT,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "user_id" TEXT,
    "target_type" TEXT,
    "target_id" TEXT,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "image_ai_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "image_ai_requests_target_type_target_id_idx" ON "image_ai_requests"("target_type", "target_id");

-- CreateIndex
CREATE INDEX "image_ai_requests_user_id_created_at_idx" ON "image_ai_requests"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "image_ai_requests_status_created_at_idx" ON "image_ai_requests"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "image_ai_requests_provider_provider_request_id_key" ON "image_ai_requests"("provider", "provider_request_id");

-- AddForeignKey
ALTER TABLE "image_ai_requests" ADD CONSTRAINT "image_ai_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
