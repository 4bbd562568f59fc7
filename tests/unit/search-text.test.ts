/**
 * The pure parts of the search engine besides the parser: typo correction, edit distance,
 * filters and the search id, tsquery building, the word-vector file format and text embeddings.
 */
import { describe, expect, it } from "vitest";
import { buildSpellingIndex, closestWord, correctTerms, hasPrefix } from "../../app/services/search/spelling";
import { editDistance, singular, tokenize, trigramSimilarity } from "../../app/lib/search-text";
import { canonicalFilters, mergeFilters, searchIdOf } from "../../app/lib/search-filters";
import { buildTsQuery, lexeme } from "../../app/services/search/tsquery";
import { decodeWordVectors, encodeWordVectors } from "../../app/services/search/word-vectors-format";
import { createWordVectors, getWordVectors } from "../../app/services/search/word-vectors.server";
import { createTextEmbedder, textEmbedder, TEXT_EMBEDDING_DIMENSIONS } from "../../app/services/search/text-embedding.server";

describe("text helpers", () => {
  it("measures edit distance with transpositions", () => {
    expect(editDistance("shrit", "shirt")).toBe(1);
    expect(editDistance("jaket", "jacket")).toBe(1);
    expect(editDistance("sweeter", "sweater")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3); // stops early past the maximum
    expect(trigramSimilarity("shirt", "shirt")).toBe(1);
    expect(trigramSimilarity("shirt", "skirt")).toBeGreaterThan(0.2);
  });

  it("tokenises and singularises", () => {
    expect(tokenize("Men's T Shirts, $20-$50!").map((t) => t.norm)).toEqual(["mens", "t-shirts", "$20-$50"]);
    expect(tokenize("Ember & Ash").map((t) => t.norm)).toEqual(["ember", "and", "ash"]);
    expect(singular("dresses")).toBe("dress");
    expect(singular("shirts")).toBe("shirt");
    expect(singular("hoodies")).toBe("hoodie");
    expect(singular("glass")).toBe("glass");
  });
});

describe("typo correction", () => {
  const index = buildSpellingIndex(
    new Map([
      ["shirt", 40],
      ["shirts", 30],
      ["short", 3],
      ["shorts", 12],
      ["skirt", 8],
      ["jacket", 20],
      ["jackets", 10],
      ["linen", 25],
      ["sweater", 9],
      ["cardigan", 4],
    ]),
  );

  it("corrects unknown words to the closest catalogue word", () => {
    expect(closestWord(index, "shrit")).toBe("shirt");
    expect(closestWord(index, "jaket")).toBe("jacket");
    expect(closestWord(index, "lnen")).toBe("linen");
    expect(closestWord(index, "sweeter")).toBe("sweater");
    expect(closestWord(index, "cardign")).toBe("cardigan");
    expect(closestWord(index, "zzyzx")).toBeNull();
  });

  it("leaves known words, English words and a prefix being typed alone", () => {
    const english = new Set(["jumper", "warm"]);
    const r = correctTerms(["warm", "shrit", "jumper"], index, (w) => english.has(w));
    expect(r.terms).toEqual(["warm", "shirt", "jumper"]);
    expect(r.changed).toBe(true);
    expect([...r.replaced]).toEqual([["shrit", "shirt"]]);
    expect(hasPrefix(index, "jack")).toBe(true);
    expect(correctTerms(["jack"], index).terms).toEqual(["jack"]);
    // Not the last word: a prefix is not enough.
    expect(correctTerms(["jacke", "linen"], index).terms).toEqual(["jacket", "linen"]);
    expect(correctTerms(["shirts"], index).changed).toBe(false);
    expect(correctTerms(["ab", "501"], index).changed).toBe(false);
  });
});

describe("filters and the search id", () => {
  it("canonicalises: neutral values out, lists sorted and de-duplicated, prices ordered", () => {
    expect(canonicalFilters({ target_gender: "both", colors: ["Navy", "navy", " red "], sizes: ["M", "m", "L"], priceMin: 0, available: false })).toEqual({
      colors: ["navy", "red"],
      sizes: ["L", "M"],
    });
    expect(canonicalFilters({ priceMin: 90, priceMax: 10 })).toEqual({ priceMin: 10, priceMax: 90 });
    expect(canonicalFilters({ colors: [], storeIds: [""] })).toEqual({});
  });

  it("merges parsed filters into the caller's: lists united, the caller's single values win", () => {
    expect(mergeFilters({ colors: ["red"], priceMax: 100 }, { colors: ["navy"], priceMax: 50, target_gender: "menswear" })).toEqual({
      colors: ["navy", "red"],
      priceMax: 100,
      target_gender: "menswear",
    });
    expect(mergeFilters({ target_gender: "womenswear" }, { target_gender: "menswear" })).toEqual({ target_gender: "womenswear" });
    expect(mergeFilters({ target_gender: "both" }, { target_gender: "menswear" })).toEqual({ target_gender: "menswear" });
  });

  it("gives the same id to the same normalised text and filters, another to others", () => {
    const a = searchIdOf("Linen  Shirt", { colors: ["Navy"], target_gender: "menswear" });
    const b = searchIdOf("linen shirt", { target_gender: "menswear", colors: ["navy"] });
    expect(a).toBe(b);
    expect(a).toMatch(/^s_[0-9a-z]{22}$/);
    expect(searchIdOf("linen shirt", { target_gender: "both" })).toBe(searchIdOf("linen shirt", {}));
    expect(searchIdOf("linen shirt", {})).not.toBe(searchIdOf("linen shirts", {}));
    expect(searchIdOf("linen shirt", { priceMax: 50 })).not.toBe(searchIdOf("linen shirt", { priceMax: 60 }));
    expect(searchIdOf("", { storeIds: ["x"] })).not.toBe(searchIdOf("", { productTypes: ["x"] }));
  });
});

describe("tsquery", () => {
  it("quotes lexemes so input cannot inject syntax", () => {
    expect(lexeme("shirt")).toBe("'shirt'");
    expect(lexeme("it's")).toBe("'its'");
    expect(lexeme("a'|b:*")).toBe("'ab'");
    expect(lexeme("!!")).toBeNull();
    expect(lexeme("t-shirt")).toBe("'t-shirt'");
  });

  it("joins terms with AND or OR, alternatives with OR, the prefix with :*", () => {
    expect(buildTsQuery([{ words: ["linen"] }, { words: ["shirt", "tee"], prefix: "shi" }], "all")).toBe("'linen' & ( 'shirt' | 'tee' | 'shi':* )");
    expect(buildTsQuery([{ words: ["a"] }, { words: ["b"] }], "any")).toBe("'a' | 'b'");
    expect(buildTsQuery([{ words: ["j"], prefix: "j" }], "all")).toBe("'j'"); // one-letter prefixes match too much
    expect(buildTsQuery([{ words: ["&&"] }], "all")).toBeNull();
  });
});

describe("word vectors", () => {
  it("round-trips the int8 file format", () => {
    const words = ["alpha", "beta"];
    const vectors = [
      [0.6, -0.8, 0],
      [0, 0, 1],
    ];
    const bytes = encodeWordVectors(words, vectors, 3);
    const d = decodeWordVectors(bytes);
    expect(d.words).toEqual(words);
    expect(d.dimensions).toBe(3);
    const wv = createWordVectors(bytes);
    const a = wv.vector("alpha")!;
    expect(a[0]).toBeCloseTo(0.6, 2);
    expect(a[1]).toBeCloseTo(-0.8, 2);
    expect(wv.vector("alphas")).not.toBeNull(); // plural falls back to the singular
    expect(wv.vector("gamma")).toBeNull();
    expect(() => decodeWordVectors(new Uint8Array(8))).toThrow(/magic/);
  });

  it("ships the distilled vectors: fashion synonyms are close, unrelated words are not", () => {
    const wv = getWordVectors();
    expect(wv).not.toBeNull();
    expect(wv!.size).toBeGreaterThan(15_000);
    const cos = (a: string, b: string) => {
      const x = wv!.vector(a)!;
      const y = wv!.vector(b)!;
      let d = 0;
      for (let i = 0; i < x.length; i++) d += x[i] * y[i];
      return d;
    };
    expect(cos("jumper", "sweater")).toBeGreaterThan(0.85);
    expect(cos("trousers", "pants")).toBeGreaterThan(0.9);
    expect(cos("tee", "t-shirt")).toBeGreaterThan(0.85);
    expect(cos("jumper", "jeans")).toBeLessThan(0.5);
  });

  it("embeds products and queries as 100-d unit vectors; similar garments are closer", async () => {
    const sweater = (await textEmbedder.embed({ title: "Chunky Merino Sweater", productType: "Knitwear", tags: ["sweater", "merino", "cream"] }))!;
    const hoodie = (await textEmbedder.embed({ title: "Oversized Fleece Hoodie", productType: "Hoodies & Sweatshirts", tags: ["hoodie", "fleece"] }))!;
    const trousers = (await textEmbedder.embed({ title: "Pleated Wool Trousers", productType: "Trousers", tags: ["trousers", "wool"] }))!;
    expect(sweater).toHaveLength(TEXT_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...sweater)).toBeCloseTo(1, 3);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
    const q = textEmbedder.embedQuery("sweatshirt")!;
    expect(dot(q, hoodie)).toBeGreaterThan(dot(q, sweater));
    expect(dot(q, hoodie)).toBeGreaterThan(dot(q, trousers));
    expect(dot(textEmbedder.embedQuery("pants")!, trousers)).toBeGreaterThan(0.6);
    expect(textEmbedder.embedQuery("zzyzx qwxq")).toBeNull();
    expect(await createTextEmbedder(() => null).embed({ title: "Shirt" })).toBeNull();
    expect(textEmbedder).toMatchObject({ kind: "text", dimensions: 100 });
  });
});
