CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "AuthProvider" AS ENUM ('guest', 'lead', 'password', 'shopify');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('SHOPPER', 'VENDOR', 'ADMIN');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "TargetGender" AS ENUM ('both', 'menswear', 'womenswear');

-- CreateEnum
CREATE TYPE "ProductStatus" AS ENUM ('draft', 'active', 'archived');

-- CreateEnum
CREATE TYPE "CompanionStatus" AS ENUM ('draft', 'active', 'archived', 'pending_review');

-- CreateEnum
CREATE TYPE "CollectionStatus" AS ENUM ('draft', 'active', 'archived');

-- CreateEnum
CREATE TYPE "ReviewStatus" AS ENUM ('pending', 'approved', 'published', 'rejected');

-- CreateEnum
CREATE TYPE "ReturnStatus" AS ENUM ('REQUESTED', 'LABEL_SENT', 'IN_TRANSIT', 'DELIVERED', 'REFUNDED', 'CANCELED');

-- CreateEnum
CREATE TYPE "ReturnRequestStatus" AS ENUM ('REQUESTED', 'OPEN', 'CLOSED', 'DECLINED', 'CANCELED');

-- CreateEnum
CREATE TYPE "ReturnReason" AS ENUM ('COLOR', 'DEFECTIVE', 'NOT_AS_DESCRIBED', 'OTHER', 'SIZE_TOO_LARGE', 'SIZE_TOO_SMALL', 'STYLE', 'UNKNOWN', 'UNWANTED', 'WRONG_ITEM');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('open', 'cancelled', 'closed');

-- CreateEnum
CREATE TYPE "OrderItemStatus" AS ENUM ('unfulfilled', 'fulfilled', 'shipped', 'delivered', 'cancelled', 'returned');

-- CreateEnum
CREATE TYPE "CloneTrainingStatus" AS ENUM ('queued', 'preprocessing', 'training', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "OutfitProcessingStatus" AS ENUM ('PENDING', 'PROCESSING_IMAGES', 'READY', 'ERROR');

-- CreateEnum
CREATE TYPE "OutfitGenerationStatus" AS ENUM ('PENDING', 'PROCESSING', 'COMPLETED', 'ERROR');

-- CreateEnum
CREATE TYPE "GenerationStatus" AS ENUM ('queued', 'processing', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "ProductAdStatus" AS ENUM ('PENDING', 'COMPLETED', 'FEEDBACK_PENDING', 'APPROVED', 'LIVE', 'INACTIVE');

-- CreateEnum
CREATE TYPE "ProductAdRequestStatus" AS ENUM ('open', 'completed');

-- CreateEnum
CREATE TYPE "ProposalStatus" AS ENUM ('pending', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "ImportJobStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "NotificationKind" AS ENUM ('back_in_stock', 'search', 'drop');

-- CreateEnum
CREATE TYPE "NotificationStatus" AS ENUM ('active', 'sent', 'unsubscribed');

-- CreateEnum
CREATE TYPE "InternalMediaType" AS ENUM ('image', 'video');

-- CreateEnum
CREATE TYPE "ConversationStatus" AS ENUM ('active', 'closed');

-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('user', 'assistant');

-- CreateEnum
CREATE TYPE "DropStatus" AS ENUM ('draft', 'scheduled', 'published', 'cancelled');

-- CreateEnum
CREATE TYPE "CategorisationStatus" AS ENUM ('pending', 'processing', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "ProductRequestStatus" AS ENUM ('pending', 'accepted', 'rejected', 'fulfilled');

-- CreateEnum
CREATE TYPE "SocialsContentStatus" AS ENUM ('draft', 'approved', 'published', 'archived');

-- CreateEnum
CREATE TYPE "EmailStatus" AS ENUM ('queued', 'sent', 'failed');

-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('pending', 'paid', 'failed');

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "auth_provider" "AuthProvider" NOT NULL DEFAULT 'guest',
    "email" TEXT,
    "password_hash" TEXT,
    "first_name" TEXT,
    "last_name" TEXT,
    "phone_number" TEXT,
    "role" "Role" NOT NULL DEFAULT 'SHOPPER',
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "vendor_id" TEXT,
    "cart_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "shopify_customer_id" TEXT,
    "shopify_staff_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_tokens" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "auth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendors" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "email" TEXT,
    "payout_details" JSONB,
    "commission_rate" DECIMAL(5,2) NOT NULL DEFAULT 15,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_payouts" (
    "id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "period_start" TIMESTAMP(3) NOT NULL,
    "period_end" TIMESTAMP(3) NOT NULL,
    "gross_sales" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "commission" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "amount" DECIMAL(12,2) NOT NULL,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "status" "PayoutStatus" NOT NULL DEFAULT 'pending',
    "reference" TEXT,
    "paid_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vendor_payouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stores" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "description" TEXT,
    "logo_url" TEXT,
    "banner_url" TEXT,
    "size_recommendation" TEXT,
    "target_gender" "TargetGender" NOT NULL DEFAULT 'both',
    "vendor_id" TEXT NOT NULL,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "taobao_shop_id" TEXT,
    "last_synced_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "store_featured_products" (
    "store_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_featured_products_pkey" PRIMARY KEY ("store_id","product_id")
);

-- CreateTable
CREATE TABLE "user_favorite_stores" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_favorite_stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "vendor" TEXT NOT NULL DEFAULT '',
    "availableForSale" BOOLEAN NOT NULL DEFAULT false,
    "productType" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "descriptionHtml" TEXT NOT NULL DEFAULT '',
    "featuredImageUrl" TEXT,
    "featuredImageAltText" TEXT,
    "priceMin" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "priceMax" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "totalInventory" INTEGER NOT NULL DEFAULT 0,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "target_gender" "TargetGender" NOT NULL DEFAULT 'both',
    "status" "ProductStatus" NOT NULL DEFAULT 'active',
    "publishedAt" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "store_id" TEXT,
    "vendor_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_options" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "values" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "product_options_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_variants" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "availableForSale" BOOLEAN NOT NULL DEFAULT false,
    "price" DECIMAL(12,2) NOT NULL,
    "compareAtPrice" DECIMAL(12,2),
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "sku" TEXT,
    "inventory_quantity" INTEGER NOT NULL DEFAULT 0,
    "image_url" TEXT,
    "selectedOptions" JSONB NOT NULL DEFAULT '[]',
    "color_hex" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "taobao_sku_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_images" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "altText" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_embeddings" (
    "product_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dimensions" INTEGER NOT NULL,
    "embedding" DOUBLE PRECISION[],
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_embeddings_pkey" PRIMARY KEY ("product_id","kind")
);

-- CreateTable
CREATE TABLE "product_companions" (
    "id" TEXT NOT NULL,
    "shopify_product_id" TEXT NOT NULL,
    "taobao_id" TEXT,
    "taobao_title" TEXT,
    "taobao_url" TEXT,
    "status" "CompanionStatus" NOT NULL DEFAULT 'draft',
    "status_reason" TEXT,
    "material_sections" JSONB NOT NULL DEFAULT '[]',
    "presale_variant_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "scheduled_publish_date" TIMESTAMP(3),
    "tryon_active" BOOLEAN NOT NULL DEFAULT false,
    "verified_at" TIMESTAMP(3),
    "flat_image_url" TEXT,
    "mask_image_url" TEXT,
    "vector_synced_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_companions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reviews" (
    "id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "title" TEXT,
    "body" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "images" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "ReviewStatus" NOT NULL DEFAULT 'pending',
    "shopify_order_id" TEXT,
    "shopify_product_companion_id" TEXT,
    "product_id" TEXT NOT NULL,
    "store_id" TEXT,
    "user_id" TEXT,
    "verified_buyer" BOOLEAN NOT NULL DEFAULT false,
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_rating_summaries" (
    "id" TEXT NOT NULL,
    "product_id" TEXT,
    "store_id" TEXT,
    "average" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,
    "distribution" JSONB NOT NULL DEFAULT '{"1":0,"2":0,"3":0,"4":0,"5":0}',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "review_rating_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_invitations" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "user_id" TEXT,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_dismissals" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_dismissals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "order_number" INTEGER,
    "user_id" TEXT,
    "email" TEXT,
    "shopify_customer_id" TEXT,
    "status" "OrderStatus" NOT NULL DEFAULT 'open',
    "financial_status" TEXT,
    "fulfillment_status" TEXT,
    "subtotal_price" DECIMAL(12,2),
    "total_shipping" DECIMAL(12,2),
    "total_tax" DECIMAL(12,2),
    "total_price" DECIMAL(12,2) NOT NULL,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "cancel_reason" TEXT,
    "cancelled_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "shipping_address" JSONB,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_items" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "product_id" TEXT,
    "variant_id" TEXT,
    "vendor_id" TEXT,
    "title" TEXT NOT NULL,
    "variant_title" TEXT,
    "sku" TEXT,
    "quantity" INTEGER NOT NULL,
    "price" DECIMAL(12,2) NOT NULL,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "status" "OrderItemStatus" NOT NULL DEFAULT 'unfulfilled',
    "tracking_number" TEXT,
    "tracking_url" TEXT,
    "provider" TEXT,
    "image_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "order_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "returns" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "user_id" TEXT,
    "shopify_return_id" TEXT,
    "status" "ReturnStatus" NOT NULL DEFAULT 'REQUESTED',
    "reason" "ReturnReason" NOT NULL DEFAULT 'UNKNOWN',
    "reason_note" TEXT,
    "tracking_number" TEXT,
    "tracking_company" TEXT,
    "label_url" TEXT,
    "note_text" TEXT,
    "refund_amount" DECIMAL(12,2),
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "received_at" TIMESTAMP(3),
    "refunded_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "returns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "return_line_items" (
    "id" TEXT NOT NULL,
    "return_id" TEXT NOT NULL,
    "order_item_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "reason" "ReturnReason" NOT NULL DEFAULT 'UNKNOWN',
    "received" BOOLEAN NOT NULL DEFAULT false,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "return_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "return_requests" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "user_id" TEXT,
    "status" "ReturnRequestStatus" NOT NULL DEFAULT 'REQUESTED',
    "reason" "ReturnReason" NOT NULL DEFAULT 'UNKNOWN',
    "note" TEXT,
    "order_item_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "return_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "return_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collections" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "description" TEXT,
    "image_url" TEXT,
    "status" "CollectionStatus" NOT NULL DEFAULT 'draft',
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "view_count" INTEGER NOT NULL DEFAULT 0,
    "target_gender" "TargetGender" NOT NULL DEFAULT 'both',
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "partner_id" TEXT,
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collection_products" (
    "collection_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collection_products_pkey" PRIMARY KEY ("collection_id","product_id")
);

-- CreateTable
CREATE TABLE "styles" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "description" TEXT,
    "image_url" TEXT,
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "target_gender" "TargetGender" NOT NULL DEFAULT 'both',
    "categorisation_status" "CategorisationStatus" NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "styles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "style_products" (
    "style_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "score" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "style_products_pkey" PRIMARY KEY ("style_id","product_id")
);

-- CreateTable
CREATE TABLE "user_collections" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "image_url" TEXT,
    "is_ai_generated" BOOLEAN NOT NULL DEFAULT false,
    "prompt" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_collection_products" (
    "user_collection_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_collection_products_pkey" PRIMARY KEY ("user_collection_id","product_id")
);

-- CreateTable
CREATE TABLE "saved_products" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_tryons" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "tryon_id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_tryons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vision_search_entries" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "image_url" TEXT NOT NULL,
    "result" JSONB,
    "is_temporary" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vision_search_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clones" (
    "id" TEXT NOT NULL,
    "user_id" TEXT,
    "name" TEXT NOT NULL,
    "gender" TEXT,
    "baseImageUrls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "profileImageUrl" TEXT,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "is_product_clone" BOOLEAN NOT NULL DEFAULT false,
    "product_id" TEXT,
    "lora_url" TEXT,
    "trigger_word" TEXT,
    "processing_status" "OutfitProcessingStatus" NOT NULL DEFAULT 'PENDING',
    "outfit_generation_status" "OutfitGenerationStatus" NOT NULL DEFAULT 'PENDING',
    "processing_progress" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "clones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clone_training_jobs" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" "CloneTrainingStatus" NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "clone_id" TEXT,
    "is_product_clone" BOOLEAN NOT NULL DEFAULT false,
    "input_image_urls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "error" TEXT,
    "completed_at" TIMESTAMP(3),
    "duration" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "clone_training_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outfits" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "user_id" TEXT,
    "clone_id" TEXT,
    "product_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "image_url" TEXT,
    "processing_status" "OutfitProcessingStatus" NOT NULL DEFAULT 'PENDING',
    "outfit_generation_status" "OutfitGenerationStatus" NOT NULL DEFAULT 'PENDING',
    "processing_progress" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "outfits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outfit_training_data" (
    "id" TEXT NOT NULL,
    "outfit_id" TEXT,
    "image_url" TEXT NOT NULL,
    "caption" TEXT,
    "product_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "approved" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "outfit_training_data_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tryons" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "clone_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "variant_id" TEXT,
    "status" "GenerationStatus" NOT NULL DEFAULT 'queued',
    "prompt_strength" DOUBLE PRECISION,
    "enable_add_details" BOOLEAN NOT NULL DEFAULT true,
    "input_hash" TEXT NOT NULL,
    "error" TEXT,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tryons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generated_images" (
    "id" TEXT NOT NULL,
    "tryon_id" TEXT,
    "clone_id" TEXT,
    "image_url" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'tryon',
    "status" "GenerationStatus" NOT NULL DEFAULT 'completed',
    "width" INTEGER,
    "height" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "generated_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drops" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "image_url" TEXT,
    "shopify_products_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "scheduled_publish_date" TIMESTAMP(3),
    "status" "DropStatus" NOT NULL DEFAULT 'draft',
    "notified_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "drops_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_requests" (
    "id" TEXT NOT NULL,
    "kind" "NotificationKind" NOT NULL,
    "user_id" TEXT,
    "email" TEXT NOT NULL,
    "product_id" TEXT,
    "variant_id" TEXT,
    "search_id" TEXT,
    "search_query" TEXT,
    "drop_id" TEXT,
    "status" "NotificationStatus" NOT NULL DEFAULT 'active',
    "unsubscribe_token" TEXT NOT NULL,
    "sent_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_outbox" (
    "id" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "kind" TEXT,
    "status" "EmailStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "sent_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_ads" (
    "id" TEXT NOT NULL,
    "status" "ProductAdStatus" NOT NULL DEFAULT 'PENDING',
    "product_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "request_id" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "media_urls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "feedback" TEXT,
    "meta_ad_id" TEXT,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "conversions" INTEGER NOT NULL DEFAULT 0,
    "spend" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "metrics_synced_at" TIMESTAMP(3),
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_ads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_ad_requests" (
    "id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "product_id" TEXT,
    "uploaded_image_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "ProductAdRequestStatus" NOT NULL DEFAULT 'open',
    "notes" TEXT,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_ad_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_ad_features" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "price" DECIMAL(12,2),
    "currencyCode" TEXT NOT NULL DEFAULT 'USD',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_ad_features_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_ad_request_features" (
    "request_id" TEXT NOT NULL,
    "feature_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_ad_request_features_pkey" PRIMARY KEY ("request_id","feature_id")
);

-- CreateTable
CREATE TABLE "product_socials_contents" (
    "id" TEXT NOT NULL,
    "companion_id" TEXT NOT NULL,
    "vendor_id" TEXT,
    "store_id" TEXT,
    "platform" TEXT NOT NULL,
    "caption" TEXT NOT NULL,
    "hashtags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "media_urls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "SocialsContentStatus" NOT NULL DEFAULT 'draft',
    "scheduled_at" TIMESTAMP(3),
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_socials_contents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uploaded_images" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "content_type" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "user_id" TEXT,
    "purpose" TEXT NOT NULL DEFAULT 'general',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "uploaded_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "internal_media" (
    "id" TEXT NOT NULL,
    "type" "InternalMediaType" NOT NULL,
    "format" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "key" TEXT,
    "title" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "duration" DOUBLE PRECISION,
    "l" DOUBLE PRECISION,
    "a" DOUBLE PRECISION,
    "b" DOUBLE PRECISION,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "internal_media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "proposed_image_edits" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "image_url" TEXT NOT NULL,
    "proposed_image_url" TEXT NOT NULL,
    "prompt" TEXT,
    "operation" TEXT NOT NULL,
    "status" "ProposalStatus" NOT NULL DEFAULT 'pending',
    "reviewer_id" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "proposed_image_edits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "proposed_variant_images" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "current_image_url" TEXT,
    "proposed_image_url" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" "ProposalStatus" NOT NULL DEFAULT 'pending',
    "reviewer_id" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "proposed_variant_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_jobs" (
    "id" TEXT NOT NULL,
    "taobao_product_id" TEXT NOT NULL,
    "store_id" TEXT,
    "store_name" TEXT NOT NULL,
    "status" "ImportJobStatus" NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "source_payload" JSONB,
    "product_id" TEXT,
    "page" INTEGER,
    "batch_id" TEXT,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledge_entries" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "source" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "knowledge_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "material_categories" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "description" TEXT,
    "parent_id" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "material_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_requests" (
    "id" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "garment" TEXT NOT NULL,
    "link" TEXT,
    "image_url" TEXT,
    "user_id" TEXT,
    "email" TEXT,
    "status" "ProductRequestStatus" NOT NULL DEFAULT 'pending',
    "notes" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversations" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" "ConversationStatus" NOT NULL DEFAULT 'active',
    "title" TEXT,
    "last_message_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "role" "MessageRole" NOT NULL,
    "content" TEXT NOT NULL,
    "product_id" TEXT,
    "metadata" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_view_events" (
    "id" TEXT NOT NULL,
    "user_id" TEXT,
    "session_id" TEXT,
    "product_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_view_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_purchase_events" (
    "id" TEXT NOT NULL,
    "user_id" TEXT,
    "order_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "variant_id" TEXT,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_purchase_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "queue" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "run_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_at" TIMESTAMP(3),
    "locked_by" TEXT,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "dedupe_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "id" TEXT NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_shopify_customer_id_key" ON "users"("shopify_customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_shopify_staff_id_key" ON "users"("shopify_staff_id");

-- CreateIndex
CREATE INDEX "users_role_idx" ON "users"("role");

-- CreateIndex
CREATE INDEX "users_vendor_id_idx" ON "users"("vendor_id");

-- CreateIndex
CREATE UNIQUE INDEX "auth_tokens_token_hash_key" ON "auth_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "auth_tokens_user_id_idx" ON "auth_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "vendors_handle_key" ON "vendors"("handle");

-- CreateIndex
CREATE INDEX "vendor_payouts_vendor_id_period_end_idx" ON "vendor_payouts"("vendor_id", "period_end" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "vendor_payouts_vendor_id_period_start_period_end_key" ON "vendor_payouts"("vendor_id", "period_start", "period_end");

-- CreateIndex
CREATE UNIQUE INDEX "stores_handle_key" ON "stores"("handle");

-- CreateIndex
CREATE UNIQUE INDEX "stores_taobao_shop_id_key" ON "stores"("taobao_shop_id");

-- CreateIndex
CREATE INDEX "stores_vendor_id_idx" ON "stores"("vendor_id");

-- CreateIndex
CREATE INDEX "stores_target_gender_sort_order_idx" ON "stores"("target_gender", "sort_order");

-- CreateIndex
CREATE INDEX "stores_sort_order_idx" ON "stores"("sort_order");

-- CreateIndex
CREATE INDEX "stores_name_idx" ON "stores" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "store_featured_products_store_id_sort_order_idx" ON "store_featured_products"("store_id", "sort_order");

-- CreateIndex
CREATE INDEX "store_featured_products_product_id_idx" ON "store_featured_products"("product_id");

-- CreateIndex
CREATE INDEX "user_favorite_stores_user_id_created_at_idx" ON "user_favorite_stores"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "user_favorite_stores_store_id_idx" ON "user_favorite_stores"("store_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_favorite_stores_user_id_store_id_key" ON "user_favorite_stores"("user_id", "store_id");

-- CreateIndex
CREATE UNIQUE INDEX "products_handle_key" ON "products"("handle");

-- CreateIndex
CREATE INDEX "products_vendor_idx" ON "products"("vendor");

-- CreateIndex
CREATE INDEX "products_vendor_id_created_at_idx" ON "products"("vendor_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "products_store_id_created_at_idx" ON "products"("store_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "products_productType_idx" ON "products"("productType");

-- CreateIndex
CREATE INDEX "products_target_gender_status_created_at_idx" ON "products"("target_gender", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "products_status_created_at_idx" ON "products"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "products_created_at_idx" ON "products"("created_at" DESC);

-- CreateIndex
CREATE INDEX "products_priceMin_idx" ON "products"("priceMin");

-- CreateIndex
CREATE INDEX "products_tags_idx" ON "products" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "products_title_idx" ON "products" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "product_options_product_id_position_idx" ON "product_options"("product_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "product_options_product_id_name_key" ON "product_options"("product_id", "name");

-- CreateIndex
CREATE INDEX "product_variants_product_id_position_idx" ON "product_variants"("product_id", "position");

-- CreateIndex
CREATE INDEX "product_variants_sku_idx" ON "product_variants"("sku");

-- CreateIndex
CREATE INDEX "product_images_product_id_position_idx" ON "product_images"("product_id", "position");

-- CreateIndex
CREATE INDEX "product_embeddings_kind_idx" ON "product_embeddings"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "product_companions_shopify_product_id_key" ON "product_companions"("shopify_product_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_companions_taobao_id_key" ON "product_companions"("taobao_id");

-- CreateIndex
CREATE INDEX "product_companions_status_idx" ON "product_companions"("status");

-- CreateIndex
CREATE INDEX "product_companions_scheduled_publish_date_idx" ON "product_companions"("scheduled_publish_date");

-- CreateIndex
CREATE INDEX "product_companions_tryon_active_idx" ON "product_companions"("tryon_active");

-- CreateIndex
CREATE INDEX "reviews_product_id_status_created_at_idx" ON "reviews"("product_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "reviews_store_id_status_created_at_idx" ON "reviews"("store_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "reviews_status_created_at_idx" ON "reviews"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "reviews_user_id_idx" ON "reviews"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "reviews_shopify_order_id_product_id_key" ON "reviews"("shopify_order_id", "product_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_rating_summaries_product_id_key" ON "review_rating_summaries"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_rating_summaries_store_id_key" ON "review_rating_summaries"("store_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_invitations_token_hash_key" ON "review_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "review_invitations_order_id_idx" ON "review_invitations"("order_id");

-- CreateIndex
CREATE INDEX "review_invitations_user_id_idx" ON "review_invitations"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "review_dismissals_user_id_order_id_product_id_key" ON "review_dismissals"("user_id", "order_id", "product_id");

-- CreateIndex
CREATE INDEX "orders_user_id_created_at_idx" ON "orders"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_email_created_at_idx" ON "orders"("email", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_status_created_at_idx" ON "orders"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_created_at_idx" ON "orders"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "orders_name_key" ON "orders"("name");

-- CreateIndex
CREATE INDEX "order_items_order_id_idx" ON "order_items"("order_id");

-- CreateIndex
CREATE INDEX "order_items_product_id_idx" ON "order_items"("product_id");

-- CreateIndex
CREATE INDEX "order_items_tracking_number_idx" ON "order_items"("tracking_number");

-- CreateIndex
CREATE INDEX "order_items_vendor_id_created_at_idx" ON "order_items"("vendor_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "returns_shopify_return_id_key" ON "returns"("shopify_return_id");

-- CreateIndex
CREATE INDEX "returns_order_id_idx" ON "returns"("order_id");

-- CreateIndex
CREATE INDEX "returns_tracking_number_idx" ON "returns"("tracking_number");

-- CreateIndex
CREATE INDEX "returns_status_created_at_idx" ON "returns"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "returns_user_id_idx" ON "returns"("user_id");

-- CreateIndex
CREATE INDEX "return_line_items_order_item_id_idx" ON "return_line_items"("order_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "return_line_items_return_id_order_item_id_key" ON "return_line_items"("return_id", "order_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "return_requests_return_id_key" ON "return_requests"("return_id");

-- CreateIndex
CREATE INDEX "return_requests_order_id_idx" ON "return_requests"("order_id");

-- CreateIndex
CREATE INDEX "return_requests_user_id_idx" ON "return_requests"("user_id");

-- CreateIndex
CREATE INDEX "return_requests_status_created_at_idx" ON "return_requests"("status", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "collections_handle_key" ON "collections"("handle");

-- CreateIndex
CREATE INDEX "collections_target_gender_status_sort_order_idx" ON "collections"("target_gender", "status", "sort_order");

-- CreateIndex
CREATE INDEX "collections_featured_status_sort_order_idx" ON "collections"("featured", "status", "sort_order");

-- CreateIndex
CREATE INDEX "collections_status_sort_order_idx" ON "collections"("status", "sort_order");

-- CreateIndex
CREATE INDEX "collections_partner_id_idx" ON "collections"("partner_id");

-- CreateIndex
CREATE INDEX "collections_title_idx" ON "collections" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "collection_products_collection_id_position_idx" ON "collection_products"("collection_id", "position");

-- CreateIndex
CREATE INDEX "collection_products_product_id_idx" ON "collection_products"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "styles_handle_key" ON "styles"("handle");

-- CreateIndex
CREATE INDEX "styles_featured_score_idx" ON "styles"("featured", "score" DESC);

-- CreateIndex
CREATE INDEX "styles_score_idx" ON "styles"("score" DESC);

-- CreateIndex
CREATE INDEX "styles_categorisation_status_idx" ON "styles"("categorisation_status");

-- CreateIndex
CREATE INDEX "style_products_style_id_position_idx" ON "style_products"("style_id", "position");

-- CreateIndex
CREATE INDEX "style_products_product_id_idx" ON "style_products"("product_id");

-- CreateIndex
CREATE INDEX "user_collections_user_id_created_at_idx" ON "user_collections"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "user_collection_products_user_collection_id_position_idx" ON "user_collection_products"("user_collection_id", "position");

-- CreateIndex
CREATE INDEX "user_collection_products_product_id_idx" ON "user_collection_products"("product_id");

-- CreateIndex
CREATE INDEX "saved_products_user_id_createdAt_idx" ON "saved_products"("user_id", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "saved_products_product_id_idx" ON "saved_products"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "saved_products_user_id_product_id_key" ON "saved_products"("user_id", "product_id");

-- CreateIndex
CREATE INDEX "saved_tryons_user_id_createdAt_idx" ON "saved_tryons"("user_id", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "saved_tryons_tryon_id_idx" ON "saved_tryons"("tryon_id");

-- CreateIndex
CREATE UNIQUE INDEX "saved_tryons_user_id_tryon_id_key" ON "saved_tryons"("user_id", "tryon_id");

-- CreateIndex
CREATE INDEX "vision_search_entries_user_id_created_at_idx" ON "vision_search_entries"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "clones_user_id_created_at_idx" ON "clones"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "clones_isPublic_created_at_idx" ON "clones"("isPublic", "created_at" DESC);

-- CreateIndex
CREATE INDEX "clones_product_id_idx" ON "clones"("product_id");

-- CreateIndex
CREATE INDEX "clone_training_jobs_user_id_created_at_idx" ON "clone_training_jobs"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "clone_training_jobs_clone_id_idx" ON "clone_training_jobs"("clone_id");

-- CreateIndex
CREATE INDEX "clone_training_jobs_status_idx" ON "clone_training_jobs"("status");

-- CreateIndex
CREATE INDEX "outfits_user_id_created_at_idx" ON "outfits"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outfits_clone_id_idx" ON "outfits"("clone_id");

-- CreateIndex
CREATE INDEX "outfit_training_data_outfit_id_idx" ON "outfit_training_data"("outfit_id");

-- CreateIndex
CREATE INDEX "outfit_training_data_approved_created_at_idx" ON "outfit_training_data"("approved", "created_at" DESC);

-- CreateIndex
CREATE INDEX "tryons_user_id_created_at_idx" ON "tryons"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "tryons_clone_id_product_id_created_at_idx" ON "tryons"("clone_id", "product_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "tryons_product_id_idx" ON "tryons"("product_id");

-- CreateIndex
CREATE INDEX "tryons_input_hash_created_at_idx" ON "tryons"("input_hash", "created_at" DESC);

-- CreateIndex
CREATE INDEX "tryons_status_idx" ON "tryons"("status");

-- CreateIndex
CREATE INDEX "generated_images_tryon_id_idx" ON "generated_images"("tryon_id");

-- CreateIndex
CREATE INDEX "generated_images_clone_id_created_at_idx" ON "generated_images"("clone_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "generated_images_image_url_idx" ON "generated_images"("image_url");

-- CreateIndex
CREATE INDEX "drops_scheduled_publish_date_idx" ON "drops"("scheduled_publish_date");

-- CreateIndex
CREATE INDEX "drops_status_scheduled_publish_date_idx" ON "drops"("status", "scheduled_publish_date");

-- CreateIndex
CREATE UNIQUE INDEX "notification_requests_unsubscribe_token_key" ON "notification_requests"("unsubscribe_token");

-- CreateIndex
CREATE INDEX "notification_requests_kind_status_idx" ON "notification_requests"("kind", "status");

-- CreateIndex
CREATE INDEX "notification_requests_product_id_status_idx" ON "notification_requests"("product_id", "status");

-- CreateIndex
CREATE INDEX "notification_requests_drop_id_status_idx" ON "notification_requests"("drop_id", "status");

-- CreateIndex
CREATE INDEX "notification_requests_search_id_idx" ON "notification_requests"("search_id");

-- CreateIndex
CREATE INDEX "notification_requests_user_id_idx" ON "notification_requests"("user_id");

-- CreateIndex
CREATE INDEX "notification_requests_email_idx" ON "notification_requests"("email");

-- CreateIndex
CREATE INDEX "email_outbox_status_created_at_idx" ON "email_outbox"("status", "created_at");

-- CreateIndex
CREATE INDEX "email_outbox_to_idx" ON "email_outbox"("to");

-- CreateIndex
CREATE UNIQUE INDEX "product_ads_meta_ad_id_key" ON "product_ads"("meta_ad_id");

-- CreateIndex
CREATE INDEX "product_ads_status_created_at_idx" ON "product_ads"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_ads_vendor_id_status_idx" ON "product_ads"("vendor_id", "status");

-- CreateIndex
CREATE INDEX "product_ads_product_id_idx" ON "product_ads"("product_id");

-- CreateIndex
CREATE INDEX "product_ads_request_id_idx" ON "product_ads"("request_id");

-- CreateIndex
CREATE INDEX "product_ad_requests_vendor_id_status_idx" ON "product_ad_requests"("vendor_id", "status");

-- CreateIndex
CREATE INDEX "product_ad_requests_status_created_at_idx" ON "product_ad_requests"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_ad_features_active_sort_order_idx" ON "product_ad_features"("active", "sort_order");

-- CreateIndex
CREATE INDEX "product_ad_request_features_feature_id_idx" ON "product_ad_request_features"("feature_id");

-- CreateIndex
CREATE INDEX "product_socials_contents_companion_id_idx" ON "product_socials_contents"("companion_id");

-- CreateIndex
CREATE INDEX "product_socials_contents_vendor_id_store_id_created_at_idx" ON "product_socials_contents"("vendor_id", "store_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_socials_contents_store_id_created_at_idx" ON "product_socials_contents"("store_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "uploaded_images_key_key" ON "uploaded_images"("key");

-- CreateIndex
CREATE INDEX "uploaded_images_user_id_created_at_idx" ON "uploaded_images"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "uploaded_images_purpose_idx" ON "uploaded_images"("purpose");

-- CreateIndex
CREATE INDEX "internal_media_type_format_created_at_idx" ON "internal_media"("type", "format", "created_at" DESC);

-- CreateIndex
CREATE INDEX "internal_media_format_idx" ON "internal_media"("format");

-- CreateIndex
CREATE INDEX "internal_media_l_a_b_idx" ON "internal_media"("l", "a", "b");

-- CreateIndex
CREATE INDEX "internal_media_tags_idx" ON "internal_media" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "proposed_image_edits_product_id_status_idx" ON "proposed_image_edits"("product_id", "status");

-- CreateIndex
CREATE INDEX "proposed_image_edits_status_created_at_idx" ON "proposed_image_edits"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "proposed_image_edits_reviewer_id_idx" ON "proposed_image_edits"("reviewer_id");

-- CreateIndex
CREATE INDEX "proposed_variant_images_product_id_status_idx" ON "proposed_variant_images"("product_id", "status");

-- CreateIndex
CREATE INDEX "proposed_variant_images_status_created_at_idx" ON "proposed_variant_images"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "proposed_variant_images_variant_id_idx" ON "proposed_variant_images"("variant_id");

-- CreateIndex
CREATE INDEX "proposed_variant_images_reviewer_id_idx" ON "proposed_variant_images"("reviewer_id");

-- CreateIndex
CREATE INDEX "import_jobs_status_created_at_idx" ON "import_jobs"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "import_jobs_status_error_message_idx" ON "import_jobs"("status", "error_message");

-- CreateIndex
CREATE INDEX "import_jobs_batch_id_page_idx" ON "import_jobs"("batch_id", "page");

-- CreateIndex
CREATE INDEX "import_jobs_taobao_product_id_idx" ON "import_jobs"("taobao_product_id");

-- CreateIndex
CREATE INDEX "import_jobs_store_id_idx" ON "import_jobs"("store_id");

-- CreateIndex
CREATE INDEX "knowledge_entries_tags_idx" ON "knowledge_entries" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "knowledge_entries_title_idx" ON "knowledge_entries" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "material_categories_handle_key" ON "material_categories"("handle");

-- CreateIndex
CREATE INDEX "material_categories_parent_id_sort_order_idx" ON "material_categories"("parent_id", "sort_order");

-- CreateIndex
CREATE INDEX "product_requests_status_created_at_idx" ON "product_requests"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_requests_user_id_idx" ON "product_requests"("user_id");

-- CreateIndex
CREATE INDEX "conversations_user_id_status_updated_at_idx" ON "conversations"("user_id", "status", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "messages_conversation_id_created_at_idx" ON "messages"("conversation_id", "created_at");

-- CreateIndex
CREATE INDEX "product_view_events_product_id_created_at_idx" ON "product_view_events"("product_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_view_events_user_id_created_at_idx" ON "product_view_events"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_view_events_session_id_created_at_idx" ON "product_view_events"("session_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_view_events_created_at_idx" ON "product_view_events"("created_at" DESC);

-- CreateIndex
CREATE INDEX "product_purchase_events_product_id_created_at_idx" ON "product_purchase_events"("product_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_purchase_events_order_id_idx" ON "product_purchase_events"("order_id");

-- CreateIndex
CREATE INDEX "product_purchase_events_user_id_created_at_idx" ON "product_purchase_events"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_purchase_events_created_at_idx" ON "product_purchase_events"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "jobs_dedupe_key_key" ON "jobs"("dedupe_key");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at");

-- CreateIndex
CREATE INDEX "jobs_queue_status_idx" ON "jobs"("queue", "status");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_payouts" ADD CONSTRAINT "vendor_payouts_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stores" ADD CONSTRAINT "stores_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_featured_products" ADD CONSTRAINT "store_featured_products_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_featured_products" ADD CONSTRAINT "store_featured_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_favorite_stores" ADD CONSTRAINT "user_favorite_stores_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_favorite_stores" ADD CONSTRAINT "user_favorite_stores_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_embeddings" ADD CONSTRAINT "product_embeddings_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_companions" ADD CONSTRAINT "product_companions_shopify_product_id_fkey" FOREIGN KEY ("shopify_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_shopify_product_companion_id_fkey" FOREIGN KEY ("shopify_product_companion_id") REFERENCES "product_companions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_rating_summaries" ADD CONSTRAINT "review_rating_summaries_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_rating_summaries" ADD CONSTRAINT "review_rating_summaries_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_invitations" ADD CONSTRAINT "review_invitations_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_invitations" ADD CONSTRAINT "review_invitations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_dismissals" ADD CONSTRAINT "review_dismissals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_dismissals" ADD CONSTRAINT "review_dismissals_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_dismissals" ADD CONSTRAINT "review_dismissals_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "returns" ADD CONSTRAINT "returns_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "returns" ADD CONSTRAINT "returns_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "return_line_items" ADD CONSTRAINT "return_line_items_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "returns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "return_line_items" ADD CONSTRAINT "return_line_items_order_item_id_fkey" FOREIGN KEY ("order_item_id") REFERENCES "order_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "returns"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "vendors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "style_products" ADD CONSTRAINT "style_products_style_id_fkey" FOREIGN KEY ("style_id") REFERENCES "styles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "style_products" ADD CONSTRAINT "style_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_collections" ADD CONSTRAINT "user_collections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_collection_products" ADD CONSTRAINT "user_collection_products_user_collection_id_fkey" FOREIGN KEY ("user_collection_id") REFERENCES "user_collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_collection_products" ADD CONSTRAINT "user_collection_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_products" ADD CONSTRAINT "saved_products_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_products" ADD CONSTRAINT "saved_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_tryons" ADD CONSTRAINT "saved_tryons_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_tryons" ADD CONSTRAINT "saved_tryons_tryon_id_fkey" FOREIGN KEY ("tryon_id") REFERENCES "tryons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vision_search_entries" ADD CONSTRAINT "vision_search_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clones" ADD CONSTRAINT "clones_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clones" ADD CONSTRAINT "clones_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clone_training_jobs" ADD CONSTRAINT "clone_training_jobs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clone_training_jobs" ADD CONSTRAINT "clone_training_jobs_clone_id_fkey" FOREIGN KEY ("clone_id") REFERENCES "clones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outfits" ADD CONSTRAINT "outfits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outfits" ADD CONSTRAINT "outfits_clone_id_fkey" FOREIGN KEY ("clone_id") REFERENCES "clones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outfit_training_data" ADD CONSTRAINT "outfit_training_data_outfit_id_fkey" FOREIGN KEY ("outfit_id") REFERENCES "outfits"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tryons" ADD CONSTRAINT "tryons_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tryons" ADD CONSTRAINT "tryons_clone_id_fkey" FOREIGN KEY ("clone_id") REFERENCES "clones"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tryons" ADD CONSTRAINT "tryons_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_tryon_id_fkey" FOREIGN KEY ("tryon_id") REFERENCES "tryons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_clone_id_fkey" FOREIGN KEY ("clone_id") REFERENCES "clones"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_requests" ADD CONSTRAINT "notification_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_requests" ADD CONSTRAINT "notification_requests_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_requests" ADD CONSTRAINT "notification_requests_drop_id_fkey" FOREIGN KEY ("drop_id") REFERENCES "drops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ads" ADD CONSTRAINT "product_ads_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ads" ADD CONSTRAINT "product_ads_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ads" ADD CONSTRAINT "product_ads_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "product_ad_requests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ad_requests" ADD CONSTRAINT "product_ad_requests_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ad_requests" ADD CONSTRAINT "product_ad_requests_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ad_request_features" ADD CONSTRAINT "product_ad_request_features_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "product_ad_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_ad_request_features" ADD CONSTRAINT "product_ad_request_features_feature_id_fkey" FOREIGN KEY ("feature_id") REFERENCES "product_ad_features"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_socials_contents" ADD CONSTRAINT "product_socials_contents_companion_id_fkey" FOREIGN KEY ("companion_id") REFERENCES "product_companions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_socials_contents" ADD CONSTRAINT "product_socials_contents_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_socials_contents" ADD CONSTRAINT "product_socials_contents_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "uploaded_images" ADD CONSTRAINT "uploaded_images_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposed_image_edits" ADD CONSTRAINT "proposed_image_edits_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposed_image_edits" ADD CONSTRAINT "proposed_image_edits_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposed_variant_images" ADD CONSTRAINT "proposed_variant_images_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposed_variant_images" ADD CONSTRAINT "proposed_variant_images_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposed_variant_images" ADD CONSTRAINT "proposed_variant_images_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "material_categories" ADD CONSTRAINT "material_categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "material_categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_requests" ADD CONSTRAINT "product_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_view_events" ADD CONSTRAINT "product_view_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_view_events" ADD CONSTRAINT "product_view_events_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_purchase_events" ADD CONSTRAINT "product_purchase_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_purchase_events" ADD CONSTRAINT "product_purchase_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
