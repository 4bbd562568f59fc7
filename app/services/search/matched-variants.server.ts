/**
 * The variant a result card shows when the shopper asked for a colour ("black jeans", a colour
 * facet): per product, the variant whose colour option is one of the catalogue colour names the
 * search resolved (./colours.ts), with its image and colour, so the card shows the black pair
 * rather than the product's default light-blue photo and links to that variant.
 *
 * Choice among a product's matching variants: in stock first, then one with an image, then one
 * of the asked sizes, then the variant's position. One statement for the whole page.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { MatchedVariant } from "~/contract/products";
import { DEFAULT_OPTION_NAMES, type OptionNames } from "./engine.server";

export interface MatchedVariantRequest {
  /** Catalogue colour names (Color option values) the search asked for. */
  colourNames: readonly string[];
  /** Sizes asked for (preferred among the colour's variants). */
  sizes?: readonly string[];
  optionNames?: OptionNames;
}

interface Row {
  product_id: string;
  id: string;
  title: string;
  colour: string;
  color_hex: string | null;
  image_url: string | null;
  availableForSale: boolean;
}

/** The matched variant of each product (products without one are absent from the map). */
export async function matchedVariants(db: Db, productIds: readonly string[], req: MatchedVariantRequest): Promise<Map<string, MatchedVariant>> {
  const out = new Map<string, MatchedVariant>();
  if (productIds.length === 0 || req.colourNames.length === 0) return out;
  const names = req.optionNames ?? DEFAULT_OPTION_NAMES;
  const sizes = req.sizes?.length ? [...req.sizes] : [];
  const sizeRank = sizes.length
    ? Prisma.sql`(CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(v."selectedOptions"::jsonb) s WHERE s->>'name' = ANY(${names.size}::text[]) AND s->>'value' = ANY(${sizes}::text[])) THEN 0 ELSE 1 END), `
    : Prisma.empty;
  const rows = await db.$queryRaw<Row[]>`
    SELECT DISTINCT ON (v.product_id) v.product_id, v.id, v.title, c.value AS colour, v.color_hex, v.image_url, v."availableForSale"
    FROM product_variants v
    CROSS JOIN LATERAL (
      SELECT e->>'value' AS value FROM jsonb_array_elements(v."selectedOptions"::jsonb) e
      WHERE e->>'name' = ANY(${names.colour}::text[]) AND e->>'value' = ANY(${[...req.colourNames]}::text[])
      LIMIT 1
    ) c
    WHERE v.product_id = ANY(${[...productIds]}::text[])
    ORDER BY v.product_id, (CASE WHEN v."availableForSale" THEN 0 ELSE 1 END), (CASE WHEN v.image_url IS NULL THEN 1 ELSE 0 END), ${sizeRank}v.position, v.id`;
  for (const r of rows) {
    out.set(r.product_id, {
      id: r.id,
      title: r.title,
      colour: r.colour,
      colorHex: r.color_hex,
      image: r.image_url ? { url: r.image_url, altText: null } : null,
      availableForSale: r.availableForSale,
    });
  }
  return out;
}
