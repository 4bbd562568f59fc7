-- Outfit generation on a clone (issue 19): the curated look a generated outfit renders, and the
-- run the image-AI hooks follow (a retry starts a new run; late results of the old one are ignored).
ALTER TABLE "outfits" ADD COLUMN "source_outfit_id" TEXT;
ALTER TABLE "outfits" ADD COLUMN "generation_attempt" INTEGER NOT NULL DEFAULT 0;
