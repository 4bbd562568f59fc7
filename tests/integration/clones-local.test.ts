/**
 * Clones on the REAL local image-AI provider (the default, no network): training prepares the
 * photos (no LoRA) and the clone becomes READY / COMPLETED; the profile image is a square crop
 * around the face.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");
const person = (n: number) => new File([new Uint8Array(fs.readFileSync(path.join(PEOPLE, `person-${n}.jpg`)))], `person-${n}.jpg`, { type: "image/jpeg" });

let app: TestApp;
let user: { id: string; token: string };
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

beforeAll(async () => {
  app = await createTestApp();
  user = await app.createUser();
}, 60_000);
afterAll(() => app?.close());

describe("clones on the local provider", () => {
  it("trains (prepares the photos) and makes a profile image", async () => {
    const fd = new FormData();
    fd.set("name", "Local me");
    fd.set("gender", "womenswear");
    fd.set("start_training", "true");
    for (const n of [1, 2, 3, 4]) fd.append("photos", person(n));
    const created = await app.api("POST", "/clones", { token: user.token, body: fd });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clone = created.body.clone;
    expect(created.body.job.status).toBe("queued");

    await drain();
    const job = await app.api("GET", `/clones/training-jobs/${created.body.job.id}`, { token: user.token });
    expect(job.body, JSON.stringify(job.body)).toMatchObject({ status: "completed", progress: 100, error: null });
    expect(job.body.duration).toBeGreaterThanOrEqual(0);
    const ready = await app.api("GET", `/clones/${clone.id}`, { token: user.token });
    expect(ready.body).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100, lora_url: null });
    const prepared = ready.body.attributes.prepared as { image_url: string; ok: boolean }[];
    expect(prepared).toHaveLength(4);
    expect(prepared.filter((p) => p.ok).length).toBeGreaterThanOrEqual(4);

    const gen = await app.api("POST", `/clones/${clone.id}/generate-profile-image`, { token: user.token });
    expect(gen.status, JSON.stringify(gen.body)).toBe(202);
    await drain();
    const after = await app.api("GET", `/clones/${clone.id}`, { token: user.token });
    expect(after.body.profile_image_status).toBe("completed");
    expect(after.body.profileImageUrl).not.toBe(clone.profileImageUrl);
    const file = path.join(app.dataDir, "uploads", after.body.profileImageUrl.replace(/^\/uploads\//, ""));
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect(meta.width).toBe(meta.height);
  }, 120_000);
});
