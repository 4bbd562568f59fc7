/**
 * app/data/word-vectors.bin is a generated file kept in git on purpose (app/data/README.md): the
 * products' stored text embeddings depend on its bytes. This pins them, so that a change is a
 * deliberate re-run of scripts/distill-word-vectors.ts (and a re-index), never an accident.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeWordVectors } from "../../app/services/search/word-vectors-format";

const FILE = path.resolve(__dirname, "../../app/data/word-vectors.bin");
/** Update together with the text-embedding model name after regenerating the file. */
const PINNED_SHA256 = "2f04cfbe7206037c83f09ebdf49bb45e59b7002a4c6e2ea744a6c076daaeebb7";

describe("app/data/word-vectors.bin", () => {
  it("is the distilled file the text embeddings were computed with", () => {
    const bytes = fs.readFileSync(FILE);
    expect(crypto.createHash("sha256").update(bytes).digest("hex")).toBe(PINNED_SHA256);
  });

  it("decodes to about 19,500 words of 100 dimensions, with the fashion words the search relies on", () => {
    const wv = decodeWordVectors(fs.readFileSync(FILE));
    expect(wv.dimensions).toBe(100);
    expect(wv.words.length).toBeGreaterThan(19_000);
    const known = new Set(wv.words);
    for (const w of ["jumper", "sweater", "trousers", "sneakers", "linen", "navy"]) expect(known.has(w)).toBe(true);
  });
});
