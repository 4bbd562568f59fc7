-- Issue 19: product socials content can be scheduled (draft -> scheduled -> published), and an
-- uploaded image edited in place (crop, rotate, background removal, replace) keeps its id, key and
-- URL, so the ad requests, reviews and product requests that name it keep working; `version`
-- changes with every edit so a viewer can ask for the new bytes past a cached copy.
ALTER TYPE "SocialsContentStatus" ADD VALUE IF NOT EXISTS 'scheduled' AFTER 'draft';

ALTER TABLE "uploaded_images" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "uploaded_images" ADD COLUMN "updated_at" TIMESTAMP(3);
