/**
 * The local CPU image-AI provider on real models (human: blazeface, movenet, selfie; ISNet
 * cut-out) with the photos of tests/fixtures/people. Slow-ish: the first cut-out takes 4–15 s.
 * Try-on results are written to test-results/tryon/ for people to look at.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderGarment } from "../helpers/garment-images";
import { createLocalStorage } from "../../app/providers/storage.server";
import { ImageAiProviderError, ImageAiUnsupportedError, imageAiInputs, type ImageAiOperation, type ImageAiProvider } from "../../app/providers/image-ai/port";
import { createLocalImageAi } from "../../app/providers/image-ai/local/index.server";
import { analyzePerson, clearPersonMemoryCache, personStats, sha256 } from "../../app/providers/image-ai/local/person.server";
import { clearGarmentMemoryCache, garmentStats } from "../../app/providers/image-ai/local/garment.server";

const FIXTURES = path.resolve("tests/fixtures/people");
const ARTEFACTS = path.resolve("test-results/tryon");
const RED = [0xc0, 0x39, 0x2b];
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

let dir: string;
let uploads: string;
let cacheDir: string;
let provider: ImageAiProvider;
let tshirt: Buffer;
const reads: string[] = [];

async function store(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(uploads, "images", "test", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return `/uploads/images/test/${name}`;
}

async function rawRgb(bytes: Uint8Array | Buffer, width?: number, height?: number) {
  const img = sharp(bytes).removeAlpha();
  const { data, info } = await (width && height ? img.resize(width, height, { fit: "fill" }) : img).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function meanIn(img: { data: Buffer; width: number }, box: { x0: number; y0: number; x1: number; y1: number }): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.round(box.y0); y < Math.round(box.y1); y++)
    for (let x = Math.round(box.x0); x < Math.round(box.x1); x++) {
      const o = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c] += img.data[o + c];
      n++;
    }
  return sum.map((v) => v / n);
}

function meanAbsDiff(a: { data: Buffer; width: number }, b: { data: Buffer; width: number }, box: { x0: number; y0: number; x1: number; y1: number }): number {
  let s = 0;
  let n = 0;
  for (let y = Math.round(box.y0); y < Math.round(box.y1); y++)
    for (let x = Math.round(box.x0); x < Math.round(box.x1); x++) {
      const o = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) s += Math.abs(a.data[o + c] - b.data[o + c]);
      n += 3;
    }
  return s / n;
}

const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

async function submit<Op extends ImageAiOperation>(op: Op, input: unknown, requestId: string, onProgress?: (p: number, m?: string) => void) {
  const parsed = imageAiInputs[op].parse(input);
  const res = await provider.submit(op, parsed as never, { requestId, onProgress });
  if (res.state !== "completed") throw new Error("expected a completed submission");
  return res.output;
}

function uploaded(url: string): Buffer {
  return fs.readFileSync(path.join(uploads, url.replace(/^\/uploads\//, "")));
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "image-ai-local-"));
  uploads = path.join(dir, "uploads");
  cacheDir = path.join(dir, "cache");
  const storage = createLocalStorage(uploads);
  provider = createLocalImageAi({
    storage,
    cacheDir,
    log: pino({ level: "silent" }),
    readImage: async (ref) => {
      reads.push(ref);
      const key = ref.replace(/^\/uploads\//, "");
      const bytes = await storage.get(key);
      if (!bytes) throw new Error(`not found: ${ref}`);
      return bytes;
    },
  });
  tshirt = await renderGarment("tshirt", "#c0392b");
  fs.mkdirSync(ARTEFACTS, { recursive: true });
}, 60_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("analyzePerson", () => {
  it("accepts a photo of one person: face box and shoulders", async () => {
    const a = await analyzePerson(fixture("person-1.jpg"), { cacheDir });
    expect(a).toMatchObject({ people: 1, usable: true, width: 550, height: 1100 });
    expect(a.reason).toBeUndefined();
    expect(a.faceBox).not.toBeNull();
    expect(a.faceBox!.width).toBeGreaterThan(100);
    expect(a.keypoints).toHaveLength(17);
    const ls = a.keypoints.find((k) => k.name === "left_shoulder")!;
    const rs = a.keypoints.find((k) => k.name === "right_shoulder")!;
    expect(ls.score).toBeGreaterThan(0.3);
    expect(rs.score).toBeGreaterThan(0.3);
    // shoulders below the face
    expect(Math.min(ls.y, rs.y)).toBeGreaterThan(a.faceBox!.y + a.faceBox!.height / 2);
  }, 120_000);

  it("refuses a group photo: more than one person", async () => {
    const a = await analyzePerson(fixture("group.jpg"), { cacheDir });
    expect(a.usable).toBe(false);
    expect(a.people).toBe(4);
    expect(a.reason).toBe("More than one person in this photo (4 found)");
  }, 60_000);

  it("finds no person in a garment image", async () => {
    const a = await analyzePerson(new Uint8Array(tshirt), { cacheDir });
    expect(a).toMatchObject({ people: 0, usable: false, reason: "No person found in this photo", faceBox: null });
  }, 60_000);

  it("refuses a photo that is too small", async () => {
    const small = await sharp(fixture("person-3.jpg")).resize({ width: 300 }).jpeg().toBuffer();
    const a = await analyzePerson(new Uint8Array(small));
    expect(a.people).toBe(1);
    expect(a.reason).toBe("Too small: at least 512 px on the short side");
  }, 60_000);

  it("accepts every single-person fixture", async () => {
    for (let i = 1; i <= 6; i++) {
      const a = await analyzePerson(fixture(`person-${i}.jpg`), { cacheDir });
      expect({ i, people: a.people, usable: a.usable }).toEqual({ i, people: 1, usable: true });
    }
  }, 120_000);
});

describe("vton-flux (local)", () => {
  it("puts the garment on the torso and keeps the face", async () => {
    const personUrl = await store("person-1.jpg", fixture("person-1.jpg"));
    const garmentUrl = await store("tshirt-red.jpg", tshirt);
    const progress: number[] = [];
    const out = await submit("vton-flux", { person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops" }, "req-vton-1", (p) => {
      progress.push(p);
    });
    expect(out.images).toHaveLength(1);
    const img = out.images[0];
    expect(img).toMatchObject({ url: "/uploads/images/ai/req-vton-1-0.jpg", content_type: "image/jpeg" });
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
    const result = uploaded(img.url);
    fs.writeFileSync(path.join(ARTEFACTS, "person-1-tshirt-red.jpg"), result);

    const a = await analyzePerson(fixture("person-1.jpg"), { cacheDir });
    const before = await rawRgb(fixture("person-1.jpg"), img.width, img.height);
    const after = await rawRgb(result);
    expect([after.width, after.height]).toEqual([img.width, img.height]);
    const s = img.width! / a.width;
    const kp = (n: string) => a.keypoints.find((k) => k.name === n)!;
    const sh = [kp("left_shoulder"), kp("right_shoulder")];
    const hips = [kp("left_hip"), kp("right_hip")];
    const sy = Math.max(...sh.map((k) => k.y)) * s;
    const hy = Math.min(...hips.map((k) => k.y)) * s;
    const xs = [...sh, ...hips].map((k) => k.x * s);
    const xl = Math.max(Math.min(...sh.map((k) => k.x * s)), Math.min(...hips.map((k) => k.x * s)));
    const xr = Math.min(Math.max(...sh.map((k) => k.x * s)), Math.max(...hips.map((k) => k.x * s)));
    expect(xs.length).toBe(4);
    // the inner torso: between the shoulders and the hips, inset
    const torso = { x0: xl + (xr - xl) * 0.2, x1: xr - (xr - xl) * 0.2, y0: sy + (hy - sy) * 0.25, y1: sy + (hy - sy) * 0.75 };
    const mBefore = meanIn(before, torso);
    const mAfter = meanIn(after, torso);
    expect(dist(mBefore, mAfter)).toBeGreaterThan(40);
    expect(dist(mAfter, RED)).toBeLessThan(dist(mBefore, RED) - 30);
    expect(dist(mAfter, RED)).toBeLessThan(90);
    // the face region stays (JPEG re-encoding only)
    const f = a.faceBox!;
    const face = { x0: (f.x + f.width * 0.2) * s, x1: (f.x + f.width * 0.8) * s, y0: (f.y + f.height * 0.15) * s, y1: (f.y + f.height * 0.85) * s };
    expect(meanAbsDiff(before, after, face)).toBeLessThan(6);
  }, 180_000);

  it("answers from the caches the second time (no new model runs)", async () => {
    const personUrl = await store("person-1.jpg", fixture("person-1.jpg"));
    const garmentUrl = await store("tshirt-red.jpg", tshirt);
    const cut = garmentStats.cutouts;
    const analysed = personStats.analysed;
    const t = Date.now();
    await submit("vton-flux", { person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops" }, "req-vton-2");
    const warm = Date.now() - t;
    expect(garmentStats.cutouts).toBe(cut);
    expect(personStats.analysed).toBe(analysed);
    expect(warm).toBeLessThan(5000);
    // on disk too: a new process (memory caches cleared) reads the cut-out and the analysis back
    expect(fs.existsSync(path.join(cacheDir, "garments", `${sha256(tshirt)}.png`))).toBe(true);
    expect(fs.existsSync(path.join(cacheDir, "people", `${sha256(fixture("person-1.jpg"))}.json`))).toBe(true);
    clearGarmentMemoryCache();
    clearPersonMemoryCache();
    const diskG = garmentStats.diskHits;
    const diskP = personStats.diskHits;
    await submit("vton-flux", { person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops" }, "req-vton-3");
    expect(garmentStats.diskHits).toBe(diskG + 1);
    expect(personStats.diskHits).toBe(diskP + 1);
    expect(garmentStats.cutouts).toBe(cut);
    expect(personStats.analysed).toBe(analysed);
  }, 120_000);

  it("dresses the other fixtures (artefacts in test-results/tryon)", async () => {
    const garmentUrl = await store("tshirt-red.jpg", tshirt);
    const dress = await renderGarment("dress", "#2e86c1");
    const dressUrl = await store("dress-blue.jpg", dress);
    for (const i of [2, 3, 4]) {
      const personUrl = await store(`person-${i}.jpg`, fixture(`person-${i}.jpg`));
      const out = await submit("vton-flux", { person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops" }, `req-vton-p${i}`);
      fs.writeFileSync(path.join(ARTEFACTS, `person-${i}-tshirt-red.jpg`), uploaded(out.images[0].url));
    }
    const personUrl = await store("person-1.jpg", fixture("person-1.jpg"));
    const out = await submit("vton-flux", { person_image_url: personUrl, garment_image_url: dressUrl, category: "one-pieces" }, "req-vton-dress");
    fs.writeFileSync(path.join(ARTEFACTS, "person-1-dress-blue.jpg"), uploaded(out.images[0].url));
  }, 240_000);

  it("refuses a group photo as the person", async () => {
    const personUrl = await store("group.jpg", fixture("group.jpg"));
    const garmentUrl = await store("tshirt-red.jpg", tshirt);
    const err = await submit("vton-flux", { person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops" }, "req-vton-group").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageAiProviderError);
    expect((err as ImageAiProviderError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/More than one person/);
  }, 60_000);
});

describe("other local operations", () => {
  it("flux-profile-image: a 512 px square around the clearest face", async () => {
    const urls = [await store("group.jpg", fixture("group.jpg")), await store("person-3.jpg", fixture("person-3.jpg")), await store("person-1.jpg", fixture("person-1.jpg"))];
    const out = await submit("flux-profile-image", { image_urls: urls }, "req-profile");
    expect(out.images[0]).toMatchObject({ width: 512, height: 512, content_type: "image/jpeg" });
    const meta = await sharp(uploaded(out.images[0].url)).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
    // the crop holds one face, large
    const a = await analyzePerson(new Uint8Array(uploaded(out.images[0].url)));
    expect(a.faceBox).not.toBeNull();
    expect(a.faceBox!.width).toBeGreaterThan(150);
  }, 120_000);

  it("remove-object: fills the masked region and leaves the rest", async () => {
    // a scene: warm gradient wall, a blue box in front of it
    const W = 640;
    const H = 480;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8d8c0"/><stop offset="1" stop-color="#b89878"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/><rect x="250" y="170" width="140" height="120" fill="#1030d0"/></svg>`;
    const scene = await sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
    const mask = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="black"/><rect x="244" y="164" width="152" height="132" fill="white"/></svg>`))
      .png()
      .toBuffer();
    const out = await submit("remove-object", { image_url: await store("scene.jpg", scene), mask_url: await store("scene-mask.png", mask) }, "req-remove");
    expect(out.images[0]).toMatchObject({ width: W, height: H });
    const before = await rawRgb(scene);
    const after = await rawRgb(uploaded(out.images[0].url));
    fs.writeFileSync(path.join(ARTEFACTS, "remove-object.jpg"), uploaded(out.images[0].url));
    const inside = { x0: 260, y0: 180, x1: 380, y1: 280 };
    const mIn = meanIn(after, inside);
    // no blue left: the fill looks like the wall around it
    expect(mIn[2]).toBeLessThan(mIn[0]);
    expect(dist(mIn, meanIn(before, inside))).toBeGreaterThan(100);
    const around = meanIn(before, { x0: 200, y0: 120, x1: 240, y1: 340 });
    expect(dist(mIn, around)).toBeLessThan(40);
    // far from the mask nothing changes (JPEG only)
    expect(meanAbsDiff(before, after, { x0: 0, y0: 0, x1: W, y1: 120 })).toBeLessThan(3);
    expect(meanAbsDiff(before, after, { x0: 440, y0: 0, x1: W, y1: H })).toBeLessThan(3);

    // a box works too
    const boxed = await submit("remove-object", { image_url: await store("scene.jpg", scene), box: { x: 246, y: 166, width: 148, height: 128 } }, "req-remove-box");
    const b = meanIn(await rawRgb(uploaded(boxed.images[0].url)), inside);
    expect(b[2]).toBeLessThan(b[0]);
  }, 60_000);

  it("generate-flux-product-shot: the cut-out on a studio background", async () => {
    const out = await submit("generate-flux-product-shot", { image_url: await store("tshirt-red.jpg", tshirt), background_color: "#dde6f0" }, "req-shot");
    expect(out.images[0]).toMatchObject({ width: 768, height: 1024 });
    const img = await rawRgb(uploaded(out.images[0].url));
    fs.writeFileSync(path.join(ARTEFACTS, "product-shot.jpg"), uploaded(out.images[0].url));
    expect(dist(meanIn(img, { x0: 0, y0: 0, x1: 40, y1: 40 }), [0xdd, 0xe6, 0xf0])).toBeLessThan(20);
    expect(dist(meanIn(img, { x0: 354, y0: 480, x1: 414, y1: 540 }), RED)).toBeLessThan(80);
  }, 120_000);

  it("train-flux: prepares each photo; refuses when fewer than 4 are usable", async () => {
    const urls = [];
    for (const i of [1, 2, 3, 4]) urls.push(await store(`person-${i}.jpg`, fixture(`person-${i}.jpg`)));
    urls.push(await store("group.jpg", fixture("group.jpg")));
    const progress: string[] = [];
    const out = await submit("train-flux", { image_urls: urls, trigger_word: "anna_1" }, "req-train", (_p, m) => {
      if (m) progress.push(m);
    });
    expect(out.lora_url).toBeNull();
    expect(out.trigger_word).toBe("anna_1");
    expect(out.prepared).toHaveLength(5);
    expect(out.prepared!.filter((p) => p.ok)).toHaveLength(4);
    expect(out.prepared![4]).toMatchObject({ ok: false, reason: "More than one person in this photo (4 found)" });
    for (const p of out.prepared!.slice(0, 4)) {
      expect(p.mask_url).toMatch(/^\/uploads\/images\/ai\/prepared\/req-train\/\d-mask\.png$/);
      expect(p.face_box).toBeDefined();
      expect(fs.existsSync(path.join(uploads, p.mask_url!.replace("/uploads/", "")))).toBe(true);
    }
    expect(progress.filter((m) => m.startsWith("Photo "))).toHaveLength(5);

    const few = [urls[0], urls[1], urls[4], urls[0]];
    const err = await submit("train-flux", { image_urls: few, trigger_word: "anna_1" }, "req-train-2").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageAiProviderError);
    expect((err as ImageAiProviderError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/Only 2 of 4 photos are usable; at least 4 are needed/);
    expect((err as Error).message).toMatch(/photo 4: The same photo as photo 1/);
  }, 180_000);

  it("train-flux-product: garment cut-outs of the product photos", async () => {
    const url = await store("tshirt-red.jpg", tshirt);
    const out = await submit("train-flux-product", { image_urls: [url], trigger_word: "red_tee" }, "req-train-product");
    expect(out.prepared).toHaveLength(1);
    expect(out.prepared![0]).toMatchObject({ ok: true, mask_url: "/uploads/images/ai/prepared/req-train-product/0-cutout.png" });
    const meta = await sharp(uploaded(out.prepared![0].mask_url!)).metadata();
    expect(meta.hasAlpha).toBe(true);
  }, 120_000);

  it("unsupported operations name fal", async () => {
    expect(provider.supports("generate-flux-lora")).toBe(false);
    expect(provider.supports("vton-flux")).toBe(true);
    const err = await provider
      .submit("generate-flux-lora", imageAiInputs["generate-flux-lora"].parse({ prompt: "a red coat" }), { requestId: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageAiUnsupportedError);
    expect((err as Error).message).toMatch(/fal/);
    expect(await provider.health()).toMatchObject({ ok: true });
  });
});
