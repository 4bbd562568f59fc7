/**
 * Clones and their training (app/contract/clones.ts): photo uploads checked by content and by
 * the person analysis (real, on tests/fixtures/people), ownership, public clones, training
 * through the image-AI queue to READY / COMPLETED or ERROR, profile images. Model calls go to the
 * fake image-AI provider (tests/helpers/fake-image-ai.ts).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { pollImageAiRequest } from "../../app/services/image-ai/jobs.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, fakePng, type FakeImageAi } from "../helpers/fake-image-ai";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");
const photo = (name: string) => new Uint8Array(fs.readFileSync(path.join(PEOPLE, name)));
const file = (bytes: Uint8Array, name: string, type = "image/jpeg") => new File([new Uint8Array(bytes)], name, { type });
const person = (n: number) => file(photo(`person-${n}.jpg`), `person-${n}.jpg`);

let app: TestApp;
let fake: FakeImageAi;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let admin: { id: string; token: string };
let otherAdmin: { id: string; token: string };

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

function cloneForm(fields: { name?: string; gender?: string; start_training?: string }, files: File[]): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.set(k, v);
  for (const f of files) fd.append("photos", f);
  return fd;
}

async function createClone(token: string, files: File[] = [1, 2, 3, 4].map(person), fields: { name?: string; gender?: string; start_training?: string } = {}) {
  return app.api("POST", "/clones", { token, body: cloneForm({ name: "Me", gender: "womenswear", ...fields }, files) });
}

beforeAll(async () => {
  fake = createFakeImageAi();
  app = await createTestApp({ imageAi: fake });
  alice = await app.createUser();
  bob = await app.createUser();
  admin = await app.createUser({ role: "ADMIN", permissions: ["ai.train"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
}, 60_000);
afterAll(() => app?.close());
beforeEach(() => {
  fake.reset();
  fake.options.fail = undefined;
  fake.options.unsupported = undefined;
  fake.options.mode = undefined;
  fake.options.output = undefined;
});

describe("POST /clones", () => {
  it("stores the usable photos and answers a verdict per photo", async () => {
    const notImage = file(new TextEncoder().encode("hello, not an image"), "notes.jpg");
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set([0xff, 0xd8, 0xff]);
    const res = await createClone(alice.token, [person(1), person(2), file(photo("group.jpg"), "group.jpg"), person(3), notImage, file(big, "huge.jpg"), person(4)], { name: "  Alice  " });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { clone, photos, job } = res.body;
    expect(job).toBeNull();
    expect(clone.name).toBe("Alice");
    expect(clone.gender).toBe("womenswear");
    expect(clone.isPublic).toBe(false);
    expect(clone.user_id).toBe(alice.id);
    expect(clone.is_owner).toBe(true);
    expect(clone.processing_status).toBe("PENDING");
    expect(clone.outfit_generation_status).toBe("PENDING");
    expect(photos).toHaveLength(7);
    expect(photos.map((p: any) => p.ok)).toEqual([true, true, false, true, false, false, true]);
    expect(photos[2]).toMatchObject({ index: 2, filename: "group.jpg", image_url: null, reason: "More than one person in this photo (4 found)" });
    expect(photos[4].reason).toMatch(/Unsupported file type/);
    expect(photos[5].reason).toMatch(/maximum is 10 MB/);
    const urls = photos.filter((p: any) => p.ok).map((p: any) => p.image_url);
    expect(clone.baseImageUrls).toEqual(urls);
    for (const u of urls) {
      expect(u).toMatch(new RegExp(`^/uploads/images/clones/${clone.id}/[0-9a-f-]+\\.jpg$`));
      expect(fs.existsSync(storedFile(u))).toBe(true);
    }
    expect(clone.photos).toHaveLength(4);
    expect(clone.profileImageUrl).toBe(urls[0]);
    // Refused photos are not kept.
    expect(fs.readdirSync(path.join(app.dataDir, "uploads", "images", "clones", clone.id))).toHaveLength(4);
  }, 60_000);

  it("refuses with 422 and the reasons when fewer than 4 photos are usable (nothing is created)", async () => {
    const before = await app.database.db.clone.count({ where: { user_id: bob.id } });
    const res = await createClone(bob.token, [person(1), person(2), person(3), file(photo("group.jpg"), "group.jpg")]);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/Only 3 of the photos can be used; at least 4/);
    const details = res.body.error.details;
    expect(details.usable).toBe(3);
    expect(details.photos).toHaveLength(4);
    expect(details.photos[3]).toMatchObject({ ok: false, reason: "More than one person in this photo (4 found)" });
    expect(details.photos.every((p: any) => p.image_url === null)).toBe(true);
    expect(await app.database.db.clone.count({ where: { user_id: bob.id } })).toBe(before);
  }, 60_000);

  it("counts the same photo twice only once", async () => {
    const res = await createClone(bob.token, [person(1), person(1), person(2), person(3)]);
    expect(res.status).toBe(422);
    expect(res.body.error.details.photos[1].reason).toBe("This photo was already uploaded");
  }, 60_000);

  it("applies the EXIF orientation before analysing and storing", async () => {
    // person-5 turned on its side, with an EXIF tag saying "rotate 90° clockwise to show".
    const sideways = await sharp(Buffer.from(photo("person-5.jpg"))).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const meta = await sharp(sideways).metadata();
    expect(meta.width).toBeGreaterThan(meta.height!);
    const res = await createClone(bob.token, [file(new Uint8Array(sideways), "side.jpg"), person(2), person(3), person(4)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const first = res.body.clone.photos.find((p: any) => p.image_url === res.body.photos[0].image_url);
    expect(first.height).toBeGreaterThan(first.width);
    const stored = await sharp(fs.readFileSync(storedFile(first.image_url))).metadata();
    expect(stored.height).toBeGreaterThan(stored.width!);
    expect(stored.orientation ?? 1).toBe(1);
    expect(stored.exif).toBeUndefined();
    await app.api("DELETE", `/clones/${res.body.clone.id}`, { token: bob.token });
  }, 60_000);

  it("validates the form", async () => {
    const noName = await app.api("POST", "/clones", { token: alice.token, body: cloneForm({ gender: "womenswear" }, [person(1), person(2)]) });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/name is required/);
    const badGender = await app.api("POST", "/clones", { token: alice.token, body: cloneForm({ name: "x", gender: "both" }, [person(1), person(2)]) });
    expect(badGender.status).toBe(400);
    expect(badGender.body.error.message).toMatch(/gender/);
    const one = await app.api("POST", "/clones", { token: alice.token, body: cloneForm({ name: "x", gender: "menswear" }, [person(1)]) });
    expect(one.status).toBe(400);
    expect(one.body.error.message).toMatch(/at least 2 photos/);
    const many = await app.api("POST", "/clones", { token: alice.token, body: cloneForm({ name: "x", gender: "menswear" }, Array.from({ length: 21 }, () => person(1))) });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toMatch(/At most 20 photos/);
    const json = await app.api("POST", "/clones", { token: alice.token, body: { name: "x", gender: "menswear" } });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toMatch(/multipart\/form-data/);
    const anon = await app.api("POST", "/clones", { body: cloneForm({ name: "x", gender: "menswear" }, [person(1), person(2)]) });
    expect(anon.status).toBe(401);
  });

  it("lets a guest create a clone and start training at once", async () => {
    const guest = await app.createUser({ authProvider: "guest" });
    const res = await createClone(guest.token, [1, 2, 3, 4].map(person), { start_training: "true", gender: "menswear" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.job).toMatchObject({ status: "queued", progress: 0, clone_id: res.body.clone.id, user_id: guest.id });
    expect(res.body.clone.processing_status).toBe("PROCESSING_IMAGES");
    expect(res.body.clone.training_job.id).toBe(res.body.job.id);
    await drain();
    const after = await app.api("GET", `/clones/${res.body.clone.id}`, { token: guest.token });
    expect(after.body).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 });
  }, 60_000);
});

describe("reads, ownership and public clones", () => {
  let aliceClone: any;
  let second: any;
  beforeAll(async () => {
    aliceClone = (await createClone(alice.token, [1, 2, 3, 4].map(person), { name: "First" })).body.clone;
    second = (await createClone(alice.token, [3, 4, 5, 6].map(person), { name: "Second" })).body.clone;
  }, 60_000);

  it("lists own clones newest first with a cursor", async () => {
    const page1 = await app.api("GET", "/clones", { token: alice.token, query: { limit: 1 } });
    expect(page1.status).toBe(200);
    expect(page1.body.clones.map((c: any) => c.id)).toEqual([second.id]);
    expect(page1.body.nextCursor).toBeTruthy();
    const page2 = await app.api("GET", "/clones", { token: alice.token, query: { limit: 1, cursor: page1.body.nextCursor } });
    expect(page2.body.clones.map((c: any) => c.id)).toEqual([aliceClone.id]);
    const all = await app.api("GET", "/clones", { token: alice.token });
    expect(all.body.clones.every((c: any) => c.user_id === alice.id)).toBe(true);
    const bobs = await app.api("GET", "/clones", { token: bob.token });
    expect(bobs.body.clones.some((c: any) => c.user_id === alice.id)).toBe(false);
    expect((await app.api("GET", "/clones", { token: alice.token, query: { cursor: "nope" } })).status).toBe(400);
    expect((await app.api("GET", "/clones", { token: alice.token, query: { limit: 51 } })).status).toBe(400);
  });

  it("answers 404 for someone else's clone and lets ai.train admins see it", async () => {
    expect((await app.api("GET", `/clones/${aliceClone.id}`, { token: alice.token })).status).toBe(200);
    const other = await app.api("GET", `/clones/${aliceClone.id}`, { token: bob.token });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("Clone not found");
    expect((await app.api("GET", `/clones/${aliceClone.id}`, { token: otherAdmin.token })).status).toBe(404);
    const asAdmin = await app.api("GET", `/clones/${aliceClone.id}`, { token: admin.token });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.is_owner).toBe(false);
    expect((await app.api("GET", "/clones/no-such-clone", { token: alice.token })).status).toBe(404);
    for (const [method, p, body] of [
      ["PATCH", `/clones/${aliceClone.id}`, { name: "x" }],
      ["DELETE", `/clones/${aliceClone.id}`, undefined],
      ["PATCH", `/clones/${aliceClone.id}/profile-image`, { profileImageUrl: aliceClone.baseImageUrls[0] }],
      ["POST", `/clones/${aliceClone.id}/generate-profile-image`, undefined],
    ] as const) {
      const r = await app.api(method, p, { token: bob.token, body });
      expect(r.status, `${method} ${p}`).toBe(404);
    }
    const fd = new FormData();
    fd.append("photos", person(5));
    expect((await app.api("POST", `/clones/${aliceClone.id}/photos`, { token: bob.token, body: fd })).status).toBe(404);
  });

  it("updates name and gender; a shopper cannot make a clone public (403), an admin can", async () => {
    const renamed = await app.api("PATCH", `/clones/${second.id}`, { token: alice.token, body: { name: "Renamed", gender: "menswear" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed", gender: "menswear", isPublic: false });
    const pub = await app.api("PATCH", `/clones/${second.id}`, { token: alice.token, body: { isPublic: true } });
    expect(pub.status).toBe(403);
    expect(pub.body.error.message).toBe("Only admins can make a clone public: your clones stay private");
    expect((await app.api("PATCH", `/clones/${second.id}`, { token: alice.token, body: {} })).status).toBe(400);
    expect((await app.api("PATCH", `/clones/${second.id}`, { token: alice.token, body: { gender: "kids" } })).status).toBe(400);

    const made = await app.api("PATCH", `/clones/${second.id}`, { token: admin.token, body: { isPublic: true } });
    expect(made.status).toBe(200);
    expect(made.body.isPublic).toBe(true);

    // Public: listed with isPublic=true and readable by anyone signed in, changed only by admins.
    const listed = await app.api("GET", "/clones", { token: bob.token, query: { isPublic: true } });
    expect(listed.body.clones.map((c: any) => c.id)).toContain(second.id);
    expect(listed.body.clones.every((c: any) => c.isPublic)).toBe(true);
    const read = await app.api("GET", `/clones/${second.id}`, { token: bob.token });
    expect(read.status).toBe(200);
    expect(read.body.is_owner).toBe(false);
    const edit = await app.api("PATCH", `/clones/${second.id}`, { token: bob.token, body: { name: "Mine now" } });
    expect(edit.status).toBe(403);
    expect(edit.body.error.message).toBe("Only admins can change a public clone");
    expect((await app.api("DELETE", `/clones/${second.id}`, { token: bob.token })).status).toBe(403);
    // The owner may still rename it.
    expect((await app.api("PATCH", `/clones/${second.id}`, { token: alice.token, body: { name: "Still mine" } })).status).toBe(200);
  });

  it("all=true lists every clone for ai.train admins only", async () => {
    const shopper = await app.api("GET", "/clones", { token: alice.token, query: { all: true } });
    expect(shopper.status).toBe(403);
    const res = await app.api("GET", "/clones", { token: admin.token, query: { all: true, limit: 50 } });
    expect(res.status).toBe(200);
    expect(res.body.clones.map((c: any) => c.id)).toEqual(expect.arrayContaining([aliceClone.id, second.id]));
  });

  it("adds photos to a clone (duplicates and unusable ones refused)", async () => {
    const fd = new FormData();
    fd.append("photos", person(5));
    fd.append("photos", file(photo("group.jpg"), "group.jpg"));
    const res = await app.api("POST", `/clones/${aliceClone.id}/photos`, { token: alice.token, body: fd });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.photos.map((p: any) => p.ok)).toEqual([true, false]);
    expect(res.body.clone.photos).toHaveLength(5);
    expect(res.body.clone.baseImageUrls).toHaveLength(4);

    const dup = new FormData();
    dup.append("photos", person(1));
    const again = await app.api("POST", `/clones/${aliceClone.id}/photos`, { token: alice.token, body: dup });
    expect(again.status).toBe(422);
    expect(again.body.error.details.photos[0].reason).toBe("This photo was already uploaded");

    const tooMany = new FormData();
    for (let i = 0; i < 16; i++) tooMany.append("photos", person(6));
    const over = await app.api("POST", `/clones/${aliceClone.id}/photos`, { token: alice.token, body: tooMany });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toMatch(/at most 15 more/);

    expect((await app.api("POST", `/clones/${aliceClone.id}/photos`, { token: alice.token, body: new FormData() })).status).toBe(400);
  }, 60_000);

  it("outfit generation status: own or public clone, null when unknown or not the caller's", async () => {
    const own = await app.api("GET", "/clones/outfit-generation-status", { token: alice.token, query: { clone_id: aliceClone.id } });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ processing_status: "PENDING", outfit_generation_status: "PENDING", processing_progress: 0 });
    const newest = await app.api("GET", "/clones/outfit-generation-status", { token: alice.token });
    expect(newest.body).toEqual({ processing_status: "PENDING", outfit_generation_status: "PENDING", processing_progress: 0 });
    const unknown = await app.api("GET", "/clones/outfit-generation-status", { token: alice.token, query: { clone_id: "no-such-clone" } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toBeNull();
    const notMine = await app.api("GET", "/clones/outfit-generation-status", { token: bob.token, query: { clone_id: aliceClone.id } });
    expect(notMine.status).toBe(200);
    expect(notMine.body).toBeNull();
    const nobody = await app.createUser();
    expect((await app.api("GET", "/clones/outfit-generation-status", { token: nobody.token })).body).toBeNull();
    expect((await app.api("GET", "/clones/outfit-generation-status", {})).status).toBe(401);
  });
});

describe("training", () => {
  let clone: any;
  beforeAll(async () => {
    const res = await createClone(alice.token, [1, 2, 3, 4, 5].map(person), { name: "Trainee" });
    clone = res.body.clone;
  }, 60_000);

  it("validates the selection", async () => {
    const urls = clone.photos.map((p: any) => p.image_url);
    const few = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: urls.slice(0, 3) } });
    expect(few.status).toBe(400);
    expect(few.body.error.message).toMatch(/Select at least 4 photos/);
    const dupes = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: [urls[0], urls[0], urls[1], urls[2]] } });
    expect(dupes.status).toBe(422);
    const foreign = await app.api("POST", "/clones/process-selected-base-images", {
      token: alice.token,
      body: { cloneId: clone.id, selectedImageUrls: [...urls.slice(0, 3), "/uploads/images/clones/other/x.jpg"] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details.unknown).toEqual(["/uploads/images/clones/other/x.jpg"]);
    const notOwner = await app.api("POST", "/clones/process-selected-base-images", { token: bob.token, body: { selectedImageUrls: urls.slice(0, 4) } });
    expect(notOwner.status).toBe(404);
    const noClone = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { selectedImageUrls: ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"] } });
    expect(noClone.status).toBe(400);
    expect(noClone.body.error.message).toMatch(/cloneId is required/);
  });

  it("answers 501 when the provider cannot train, leaving the clone as it was", async () => {
    fake.options.unsupported = ["train-flux"];
    const urls = clone.photos.map((p: any) => p.image_url);
    const res = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { selectedImageUrls: urls.slice(0, 4) } });
    expect(res.status).toBe(501);
    expect(res.body.error.message).toMatch(/train-flux needs the fal image provider/);
    const after = await app.api("GET", `/clones/${clone.id}`, { token: alice.token });
    expect(after.body.processing_status).toBe("PENDING");
    expect(after.body.baseImageUrls).toEqual(clone.baseImageUrls);
    expect(after.body.training_job).toMatchObject({ status: "failed" });
  });

  it("trains through the job queue: progress, then READY / COMPLETED with duration", async () => {
    fake.options.mode = "submitted";
    const urls = clone.photos.map((p: any) => p.image_url);
    const selected = urls.slice(1, 5);
    const res = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { selectedImageUrls: selected } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const job = res.body.job;
    expect(job).toMatchObject({ status: "queued", progress: 0, clone_id: clone.id, is_product_clone: false, input_image_urls: selected, duration: null, completed_at: null });
    expect(res.body.clone).toMatchObject({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", baseImageUrls: selected });
    expect(res.body.clone.trigger_word).toMatch(/^TOK[A-Z0-9]{8}$/);

    const status = () => app.api("GET", "/clones/outfit-generation-status", { token: alice.token, query: { clone_id: clone.id } }).then((r) => r.body);
    expect(await status()).toEqual({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", processing_progress: 0 });

    // A second start while training → 409.
    const again = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { selectedImageUrls: selected } });
    expect(again.status).toBe(409);

    await drain(); // image-ai.run: the fake reports 50 % and answers a provider request id
    expect(fake.submits).toHaveLength(1);
    expect(fake.submits[0].op).toBe("train-flux");
    expect(fake.submits[0].input).toMatchObject({ image_urls: selected, trigger_word: res.body.clone.trigger_word, steps: 1000 });
    expect(await status()).toEqual({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PROCESSING", processing_progress: 50 });
    const running = await app.api("GET", `/clones/training-jobs/${job.id}`, { token: alice.token });
    expect(running.body).toMatchObject({ status: "training", progress: 50 });

    await fake.complete(undefined, {
      images: [],
      lora_url: "https://example.test/lora.safetensors",
      trigger_word: res.body.clone.trigger_word,
      prepared: selected.map((image_url: string) => ({ image_url, ok: true })),
    });
    const request = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_type: "clone_training", target_id: job.id } });
    await pollImageAiRequest(app.ctx, { requestId: request.id, attempt: 0 });

    expect(await status()).toEqual({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 });
    const done = await app.api("GET", `/clones/training-jobs/${job.id}`, { token: alice.token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "completed", progress: 100, error: null, clone_id: clone.id });
    expect(done.body.duration).toBeGreaterThanOrEqual(0);
    expect(Date.parse(done.body.completed_at)).not.toBeNaN();
    const after = await app.api("GET", `/clones/${clone.id}`, { token: alice.token });
    expect(after.body.lora_url).toBe("https://example.test/lora.safetensors");
    expect(after.body.attributes.prepared).toHaveLength(4);
    expect(after.body.training_job.id).toBe(job.id);

    // Jobs: own only, newest first; someone else's job → 404; ai.train admins see it.
    const list = await app.api("GET", "/clones/training-jobs", { token: alice.token, query: { take: 1 } });
    expect(list.status).toBe(200);
    expect(list.body.jobs.map((j: any) => j.id)).toEqual([job.id]);
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    const byClone = await app.api("GET", "/clones/training-jobs", { token: alice.token, query: { clone_id: clone.id } });
    expect(byClone.body.jobs.every((j: any) => j.clone_id === clone.id)).toBe(true);
    expect((await app.api("GET", "/clones/training-jobs", { token: bob.token })).body.jobs.some((j: any) => j.id === job.id)).toBe(false);
    expect((await app.api("GET", `/clones/training-jobs/${job.id}`, { token: bob.token })).status).toBe(404);
    expect((await app.api("GET", `/clones/training-jobs/${job.id}`, { token: admin.token })).status).toBe(200);
    expect((await app.api("GET", "/clones/training-jobs/nope", { token: alice.token })).status).toBe(404);
    expect((await app.api("GET", "/clones/training-jobs", { token: alice.token, query: { take: 101 } })).status).toBe(400);
  });

  it("a failed training leaves the job failed and the clone ERROR / ERROR", async () => {
    fake.options.fail = { message: "GPU on fire", retryable: false };
    const urls = clone.photos.map((p: any) => p.image_url);
    const res = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: urls.slice(0, 4) } });
    expect(res.status).toBe(202);
    await drain();
    const job = await app.api("GET", `/clones/training-jobs/${res.body.job.id}`, { token: alice.token });
    expect(job.body).toMatchObject({ status: "failed" });
    expect(job.body.error).toMatch(/GPU on fire/);
    const st = await app.api("GET", "/clones/outfit-generation-status", { token: alice.token, query: { clone_id: clone.id } });
    expect(st.body).toMatchObject({ processing_status: "ERROR", outfit_generation_status: "ERROR" });

    // And it can be trained again afterwards.
    fake.options.fail = undefined;
    const retry = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: urls.slice(0, 4) } });
    expect(retry.status).toBe(202);
    await drain();
    const ok = await app.api("GET", "/clones/outfit-generation-status", { token: alice.token, query: { clone_id: clone.id } });
    expect(ok.body).toEqual({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 });
    expect((await app.api("GET", `/clones/${clone.id}`, { token: alice.token })).body.lora_url).toBeNull();
  });

  it("a training whose photos were all refused by the provider ends in ERROR", async () => {
    fake.options.output = (_op, input: any) => ({ images: [], lora_url: null, prepared: input.image_urls.map((image_url: string) => ({ image_url, ok: false, reason: "No person found in this photo" })) });
    const urls = clone.photos.map((p: any) => p.image_url);
    const res = await app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: urls.slice(0, 4) } });
    expect(res.status).toBe(202);
    await drain();
    const job = await app.api("GET", `/clones/training-jobs/${res.body.job.id}`, { token: alice.token });
    expect(job.body.status).toBe("failed");
    expect(job.body.error).toMatch(/None of the photos could be prepared: No person found/);
    const after = await app.api("GET", `/clones/${clone.id}`, { token: alice.token });
    expect(after.body.processing_status).toBe("ERROR");
    expect(after.body.attributes.prepared).toHaveLength(4);
  });

  it("two concurrent starts: one trains, the other gets 409", async () => {
    const urls = clone.photos.map((p: any) => p.image_url);
    const start = () => app.api("POST", "/clones/process-selected-base-images", { token: alice.token, body: { cloneId: clone.id, selectedImageUrls: urls.slice(0, 4) } });
    const results = await Promise.all([start(), start()]);
    expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.message).toBe("This clone is already training; wait until it finishes");
    await drain();
    expect(await app.database.db.cloneTrainingJob.count({ where: { clone_id: clone.id, status: { in: ["queued", "preprocessing", "training"] } } })).toBe(0);
  });
});

describe("profile images", () => {
  let clone: any;
  beforeAll(async () => {
    clone = (await createClone(bob.token, [1, 2, 3, 4].map(person), { name: "Bob", gender: "menswear" })).body.clone;
  }, 60_000);

  it("generates a profile image and sets it when done", async () => {
    const res = await app.api("POST", `/clones/${clone.id}/generate-profile-image`, { token: bob.token });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.status).toBe("queued");
    expect(res.body.clone.profile_image_status).toBe("processing");
    const again = await app.api("POST", `/clones/${clone.id}/generate-profile-image`, { token: bob.token });
    expect(again.status).toBe(409);
    await drain();
    expect(fake.submits[0].op).toBe("flux-profile-image");
    expect((fake.submits[0].input as any).image_urls).toEqual(clone.baseImageUrls);
    const after = await app.api("GET", `/clones/${clone.id}`, { token: bob.token });
    expect(after.body.profile_image_status).toBe("completed");
    expect(after.body.profileImageUrl).toMatch(/^\/uploads\/images\/ai\//);
    expect(after.body.profileImageUrl).not.toBe(clone.profileImageUrl);
    const generated = after.body.profileImageUrl;

    // Choosing the profile image: one of its photos or generated images.
    const back = await app.api("PATCH", `/clones/${clone.id}/profile-image`, { token: bob.token, body: { profileImageUrl: clone.baseImageUrls[2] } });
    expect(back.status).toBe(200);
    expect(back.body.profileImageUrl).toBe(clone.baseImageUrls[2]);
    const gen = await app.api("PATCH", `/clones/${clone.id}/profile-image`, { token: bob.token, body: { profileImageUrl: generated } });
    expect(gen.status).toBe(200);
    expect(gen.body.profileImageUrl).toBe(generated);
    const foreign = await app.api("PATCH", `/clones/${clone.id}/profile-image`, { token: bob.token, body: { profileImageUrl: "https://example.test/me.jpg" } });
    expect(foreign.status).toBe(422);
    expect((await app.api("PATCH", `/clones/${clone.id}/profile-image`, { token: bob.token, body: {} })).status).toBe(400);
  });

  it("records a failed generation and keeps the old profile image", async () => {
    const before = (await app.api("GET", `/clones/${clone.id}`, { token: bob.token })).body.profileImageUrl;
    fake.options.fail = { message: "no face", retryable: false };
    const res = await app.api("POST", `/clones/${clone.id}/generate-profile-image`, { token: bob.token });
    expect(res.status).toBe(202);
    await drain();
    const after = await app.api("GET", `/clones/${clone.id}`, { token: bob.token });
    expect(after.body.profile_image_status).toBe("failed");
    expect(after.body.profileImageUrl).toBe(before);
  });

  it("answers 501 when no provider can make profile images", async () => {
    fake.options.unsupported = ["flux-profile-image"];
    const res = await app.api("POST", `/clones/${clone.id}/generate-profile-image`, { token: bob.token });
    expect(res.status).toBe(501);
  });
});

describe("admin clones", () => {
  it("needs ai.train", async () => {
    const body = { name: "House model", gender: "womenswear", baseImageUrls: ["/uploads/images/a.jpg"], train: false };
    expect((await app.api("POST", "/clones/admin", { token: alice.token, body })).status).toBe(403);
    expect((await app.api("POST", "/clones/admin", { token: otherAdmin.token, body })).status).toBe(403);
    expect((await app.api("POST", "/clones/admin", { body })).status).toBe(401);
  });

  it("creates a ready public clone without training", async () => {
    const res = await app.api("POST", "/clones/admin", {
      token: admin.token,
      body: { name: "House model", gender: "womenswear", baseImageUrls: ["/uploads/images/a.jpg", "https://cdn.example.test/b.jpg"], profileImageUrl: "/uploads/images/p.jpg", train: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.job).toBeNull();
    expect(res.body.clone).toMatchObject({ user_id: null, isPublic: true, processing_status: "READY", outfit_generation_status: "COMPLETED", profileImageUrl: "/uploads/images/p.jpg", is_owner: true });
    const listed = await app.api("GET", "/clones", { token: alice.token, query: { isPublic: true } });
    expect(listed.body.clones.map((c: any) => c.id)).toContain(res.body.clone.id);
    // Only admins change it.
    expect((await app.api("PATCH", `/clones/${res.body.clone.id}`, { token: alice.token, body: { name: "x" } })).status).toBe(403);
    expect((await app.api("PATCH", `/clones/${res.body.clone.id}`, { token: admin.token, body: { isPublic: false } })).body.isPublic).toBe(false);
    // Private admin clone: invisible to shoppers.
    expect((await app.api("GET", `/clones/${res.body.clone.id}`, { token: alice.token })).status).toBe(404);
  });

  it("trains with train-flux-admin (4 images needed)", async () => {
    const few = await app.api("POST", "/clones/admin", { token: admin.token, body: { name: "M", gender: "menswear", baseImageUrls: ["/uploads/images/a.jpg"] } });
    expect(few.status).toBe(422);
    const bad = await app.api("POST", "/clones/admin", { token: admin.token, body: { name: "M", gender: "menswear", baseImageUrls: ["ftp://x/a.jpg"], train: false } });
    expect(bad.status).toBe(400);
    const urls = ["a", "b", "c", "d"].map((n) => `/uploads/images/models/${n}.jpg`);
    const res = await app.api("POST", "/clones/admin", { token: admin.token, body: { name: "M", gender: "menswear", baseImageUrls: urls, isPublic: false } });
    expect(res.status).toBe(201);
    expect(res.body.job).toMatchObject({ status: "queued", user_id: admin.id, input_image_urls: urls });
    expect(res.body.clone).toMatchObject({ isPublic: false, processing_status: "PROCESSING_IMAGES" });
    await drain();
    expect(fake.submits.map((s) => s.op)).toEqual(["train-flux-admin"]);
    const st = await app.api("GET", "/clones/outfit-generation-status", { token: admin.token, query: { clone_id: res.body.clone.id } });
    expect(st.body).toEqual({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 });
  });

  it("removes the clone again when training cannot start", async () => {
    fake.options.unsupported = ["train-flux-admin"];
    const before = await app.database.db.clone.count();
    const urls = ["a", "b", "c", "d"].map((n) => `/uploads/images/models/${n}.jpg`);
    const res = await app.api("POST", "/clones/admin", { token: admin.token, body: { name: "M", gender: "menswear", baseImageUrls: urls } });
    expect(res.status).toBe(501);
    expect(await app.database.db.clone.count()).toBe(before);
  });
});

describe("DELETE /clones/{id}", () => {
  it("deletes the clone and its stored photos", async () => {
    const created = await createClone(bob.token, [1, 2, 3, 4].map(person), { name: "Gone" });
    const clone = created.body.clone;
    const files = clone.photos.map((p: any) => storedFile(p.image_url));
    expect(files.every((f: string) => fs.existsSync(f))).toBe(true);
    expect((await app.api("DELETE", `/clones/${clone.id}`, { token: alice.token })).status).toBe(404);
    const res = await app.api("DELETE", `/clones/${clone.id}`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(files.some((f: string) => fs.existsSync(f))).toBe(false);
    expect((await app.api("GET", `/clones/${clone.id}`, { token: bob.token })).status).toBe(404);
    expect((await app.api("DELETE", `/clones/${clone.id}`, { token: bob.token })).status).toBe(404);
  }, 60_000);

  it("cancels a running training", async () => {
    fake.options.mode = "submitted";
    const created = await createClone(bob.token, [1, 2, 3, 4].map(person), { name: "Busy", start_training: "true" });
    expect(created.status).toBe(201);
    await drain();
    const jobId = created.body.job.id;
    const res = await app.api("DELETE", `/clones/${created.body.clone.id}`, { token: bob.token });
    expect(res.status).toBe(200);
    const job = await app.api("GET", `/clones/training-jobs/${jobId}`, { token: bob.token });
    expect(job.body).toMatchObject({ status: "cancelled", clone_id: null });
    const req = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_type: "clone_training", target_id: jobId } });
    expect(req.status).toBe("cancelled");
    expect(fake.calls.some((c) => c.method === "cancel")).toBe(true);
  }, 60_000);

  it("removes every file made for the clone once it is gone (photos, prepared masks, training zip, profile and try-on images); a file another clone names stays", async () => {
    const db = app.database.db;
    const storage = app.ctx.storage;
    const png = await fakePng();
    // Training leaves what the providers leave: a mask per prepared photo (local) and the photo zip (fal).
    fake.options.output = async (op, input, opts) => {
      if (op === "train-flux") {
        await storage.put(`images/ai/training/${opts.requestId}.zip`, new Uint8Array([0x50, 0x4b, 5, 6]), "application/zip");
        const mask = await storage.put(`images/ai/prepared/${opts.requestId}/0-mask.png`, png, "image/png");
        const urls: string[] = input.image_urls;
        return { images: [], lora_url: null, trigger_word: input.trigger_word, prepared: urls.map((image_url, i) => ({ image_url, ok: true, ...(i === 0 ? { mask_url: mask.url } : {}) })) };
      }
      const { url } = await storage.put(`images/ai/fake-${opts.requestId}.png`, png, "image/png");
      return { images: [{ url, width: 64, height: 64 }] };
    };
    const created = await createClone(bob.token, [1, 2, 3, 4].map(person), { name: "Everything", start_training: "true" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const cloneId: string = created.body.clone.id;
    await drain();
    const requestId = (await db.imageAiRequest.findFirstOrThrow({ where: { target_type: "clone_training", target_id: created.body.job.id } })).id;

    const profiles: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect((await app.api("POST", `/clones/${cloneId}/generate-profile-image`, { token: bob.token })).status).toBe(202);
      await drain();
      profiles.push((await app.api("GET", `/clones/${cloneId}`, { token: bob.token })).body.profileImageUrl);
    }
    expect(new Set(profiles).size).toBe(2);

    await db.product.create({
      data: {
        id: "gid://shopify/Product/7701",
        title: "Clone delete shirt",
        handle: "clone-delete-shirt",
        vendor: "Test",
        productType: "Shirts",
        availableForSale: true,
        priceMin: 10,
        priceMax: 20,
        status: "active",
        publishedAt: new Date(Date.now() - 86_400_000),
        featuredImageUrl: "/uploads/images/test/garment.jpg",
        companion: { create: { tryon_active: true } },
      },
    });
    const tryon = await app.api("POST", "/try-ons", { token: bob.token, body: { ai_clone_id: cloneId, shopify_product_id: "gid://shopify/Product/7701" } });
    expect(tryon.status, JSON.stringify(tryon.body)).toBe(201);
    await drain();
    const tryonImage = (await app.api("GET", `/try-ons/${tryon.body.id}`, { token: bob.token })).body.generated_images[0].image_url as string;

    // An admin made a house model from the first profile image: that file is no longer only this clone's.
    await db.clone.create({ data: { name: "House from profile", baseImageUrls: [profiles[0]], isPublic: true } });

    const photos: string[] = created.body.clone.photos.map((p: { image_url: string }) => p.image_url);
    const gone = [
      ...photos,
      `/uploads/images/ai/training/${requestId}.zip`,
      `/uploads/images/ai/prepared/${requestId}/0-mask.png`,
      profiles[1],
      tryonImage,
    ].map(storedFile);
    expect(gone.filter((f) => !fs.existsSync(f))).toEqual([]);

    const res = await app.api("DELETE", `/clones/${cloneId}`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(gone.filter((f) => fs.existsSync(f))).toEqual([]);
    expect(fs.existsSync(storedFile(profiles[0]))).toBe(true);
    expect(await db.tryOn.count({ where: { id: tryon.body.id } })).toBe(0);
  }, 90_000);

  it("a storage failure while removing the files is logged: the clone is deleted and the answer is still 200", async () => {
    const created = await createClone(bob.token, [1, 2, 3, 4].map(person), { name: "Stubborn files" });
    const cloneId: string = created.body.clone.id;
    const files = created.body.clone.photos.map((p: { image_url: string }) => storedFile(p.image_url));
    const original = app.ctx.storage.delete;
    const tried: string[] = [];
    app.ctx.storage.delete = async (key: string) => {
      tried.push(key);
      throw new Error("storage is down");
    };
    try {
      const res = await app.api("DELETE", `/clones/${cloneId}`, { token: bob.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    } finally {
      app.ctx.storage.delete = original;
    }
    // Every file was tried (one failure does not stop the others), and the clone is gone.
    expect(tried).toHaveLength(files.length);
    expect(await app.database.db.clone.count({ where: { id: cloneId } })).toBe(0);
    expect((await app.api("GET", `/clones/${cloneId}`, { token: bob.token })).status).toBe(404);
  }, 60_000);
});
