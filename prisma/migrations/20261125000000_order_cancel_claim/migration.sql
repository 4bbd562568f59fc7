-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancel_requested_at" TIMESTAMP(3);

