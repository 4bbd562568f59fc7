/**
 * Product "text" embeddings from word vectors (./word-vectors.server.ts): the weighted mean of the
 * vectors of a product's title words (weight 2), product-type words (1.5) and tags (1),
 * renormalised. Queries are embedded the same way from their words. 100 dimensions. Word vectors
 * are first centred on the mean of the fashion vocabulary (./fashion-terms.ts): every product is
 * about clothes, so without it all products look alike to a query.
 *
 * The product index job (app/services/product-index*) stores these as ProductEmbedding kind
 * "text" and upserts them into the vector index's "text" namespace; the search blends the
 * similarity of a query with it into the ranking (./engine.server.ts).
 */
import { FASHION_TERMS } from "./fashion-terms";
import { centroidOf, embedWeighted, embeddingWords, getWordVectors, type WordVectors } from "./word-vectors.server";

export const TEXT_EMBEDDING_KIND = "text";
export const TEXT_EMBEDDING_MODEL = "wink-sg100d-int8-centred-v1";
export const TEXT_EMBEDDING_DIMENSIONS = 100;

/** Tags that say nothing about the product itself. */
const NOISE_TAGS = new Set(["sale", "new-in", "new", "bestseller", "featured", "clearance"]);

export interface TextEmbeddable {
  title: string;
  productType?: string | null;
  tags?: readonly string[] | null;
}

export interface TextEmbedder {
  readonly kind: "text";
  readonly model: string;
  readonly dimensions: number;
  /** The product's text vector (unit length), or null when none of its words is known. */
  embed(product: TextEmbeddable): Promise<number[] | null>;
  /** A search query's vector, or null when none of its words is known. */
  embedQuery(text: string): number[] | null;
}

export function productTextWords(p: TextEmbeddable): [string, number][] {
  const out: [string, number][] = [];
  for (const w of embeddingWords(p.title)) out.push([w, 2]);
  for (const w of embeddingWords(p.productType ?? "")) out.push([w, 1.5]);
  for (const tag of p.tags ?? []) {
    if (NOISE_TAGS.has(tag.toLowerCase())) continue;
    for (const w of embeddingWords(tag.replace(/-/g, " "))) out.push([w, 1]);
  }
  return out;
}

export function createTextEmbedder(wv: () => WordVectors | null = getWordVectors): TextEmbedder {
  let center: { of: WordVectors; v: Float32Array | undefined } | undefined;
  const centerOf = (vectors: WordVectors) => {
    if (center?.of !== vectors) center = { of: vectors, v: centroidOf(vectors, FASHION_TERMS) ?? undefined };
    return center.v;
  };
  return {
    kind: "text",
    model: TEXT_EMBEDDING_MODEL,
    dimensions: TEXT_EMBEDDING_DIMENSIONS,
    async embed(product) {
      const vectors = wv();
      return vectors ? embedWeighted(vectors, productTextWords(product), centerOf(vectors)) : null;
    },
    embedQuery(text) {
      const vectors = wv();
      if (!vectors) return null;
      const words = embeddingWords(text);
      return words.length ? embedWeighted(vectors, words.map((w) => [w, 1]), centerOf(vectors)) : null;
    },
  };
}

/** The embedder the product index job calls: `{ kind: "text", model, dimensions, embed(product) }`. */
export const textEmbedder: TextEmbedder = createTextEmbedder();
