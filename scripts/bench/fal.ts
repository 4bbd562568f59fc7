/**
 * The `fal` benchmark: what our fal.ai adapter costs per request, without fal's GPUs — the
 * adapter (input mapping, @fal-ai/client, error mapping) against the local fake of fal's queue
 * protocol (tests/helpers/fal-server.ts) on loopback HTTP.
 *
 * Figures: per request submit + status (COMPLETED) + result, p50/p95 over N sequential requests
 * (default 200), split into submit and status+result; the same under 16 concurrent requests
 * (requests per second); and a training submit (zip of 10 photos of ~100 KB into local storage,
 * then the submit). Real fal adds its queue and inference time (seconds to minutes) on top: these
 * are the adapter's own overheads, which should stay in single-digit milliseconds.
 */
import fs from "node:fs/promises";
import path from "node:path";
import pino from "pino";
import sharp from "sharp";
import { createFalImageAi } from "../../app/providers/image-ai/fal.server";
import { imageAiInputs } from "../../app/providers/image-ai/port";
import { createLocalStorage } from "../../app/providers/storage.server";
import { FAL_TEST_KEY, startFakeFal } from "../../tests/helpers/fal-server";
import { onCleanup, tempDir } from "./database";
import { addSummary, dist, fmt, printTable } from "./report";

export interface FalBenchOptions {
  requests: number;
  log: (line: string) => void;
}

export async function runFalBenchmark(opts: FalBenchOptions): Promise<void> {
  const fal = await startFakeFal();
  onCleanup(() => fal.close());
  const dir = tempDir("fal");
  const storage = createLocalStorage(dir);
  const provider = createFalImageAi({
    credentials: FAL_TEST_KEY,
    baseUrl: fal.baseUrl,
    storage,
    log: pino({ level: "silent" }),
    publicUrl: (ref) => `https://shop.example${ref}`,
  });
  const input = imageAiInputs["vton-flux"].parse({ person_image_url: "/uploads/images/clones/c/p.jpg", garment_image_url: "https://cdn.example/g.jpg", category: "tops" });

  async function one(i: number): Promise<{ submit: number; settle: number; total: number }> {
    const t0 = performance.now();
    const s = await provider.submit("vton-flux", input, { requestId: `bench_${i}` });
    if (s.state !== "submitted") throw new Error("expected a queued submission");
    const t1 = performance.now();
    const st = await provider.status("vton-flux", s.providerRequestId);
    if (st.state !== "completed") throw new Error(`expected completed, got ${st.state}`);
    const t2 = performance.now();
    return { submit: t1 - t0, settle: t2 - t1, total: t2 - t0 };
  }

  for (let i = 0; i < 20; i++) await one(-i - 1); // warm-up (connections, JIT)

  const n = opts.requests;
  const seq: { submit: number; settle: number; total: number }[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) seq.push(await one(i));
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerRequest = (cpu.user + cpu.system) / 1000 / n;
  const total = dist(seq.map((r) => r.total));
  const submit = dist(seq.map((r) => r.submit));
  const settle = dist(seq.map((r) => r.settle));

  const concurrency = 16;
  const t0 = performance.now();
  const conc: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        conc.push((await one(n + i)).total);
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const concD = dist(conc);

  // Training: 10 photos of ~100 KB in storage, zipped and stored, then submitted.
  const refs: string[] = [];
  for (let i = 0; i < 10; i++) {
    const noise = Buffer.alloc(512 * 640 * 3);
    for (let j = 0; j < noise.length; j++) noise[j] = (j * 31 + i * 7 + ((j >> 7) & 0xff)) & 0xff;
    const jpg = await sharp(noise, { raw: { width: 512, height: 640, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    await storage.put(`images/bench/photo-${i}.jpg`, new Uint8Array(jpg), "image/jpeg");
    refs.push(`/uploads/images/bench/photo-${i}.jpg`);
  }
  const photoBytes = (await Promise.all(refs.map((r) => fs.stat(path.join(dir, r.replace("/uploads/", "")))))).reduce((a, s) => a + s.size, 0);
  const trainInput = imageAiInputs["train-flux"].parse({ image_urls: refs, trigger_word: "BENCH_1" });
  const train: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    await provider.submit("train-flux", trainInput, { requestId: `bench_train_${i}` });
    train.push(performance.now() - s);
  }
  const trainD = dist(train);

  opts.log(`adapter overhead against the local fake of fal's queue (loopback HTTP, ${n} requests of vton-flux):`);
  printTable(
    ["run", "p50 ms", "p95 ms", "max ms"],
    [
      ["submit (sequential)", fmt(submit.p50, 2), fmt(submit.p95, 2), fmt(submit.max, 2)],
      ["status + result", fmt(settle.p50, 2), fmt(settle.p95, 2), fmt(settle.max, 2)],
      ["submit + status + result", fmt(total.p50, 2), fmt(total.p95, 2), fmt(total.max, 2)],
      [`same, ${concurrency} concurrent`, fmt(concD.p50, 2), fmt(concD.p95, 2), fmt(concD.max, 2)],
      [`training submit (zip ${refs.length} photos, ${(photoBytes / 1024).toFixed(0)} KB)`, fmt(trainD.p50, 2), fmt(trainD.p95, 2), fmt(trainD.max, 2)],
    ],
  );
  opts.log(`CPU per request (adapter + client + the fake server, one process): ${fmt(cpuMsPerRequest, 2)} ms`);
  opts.log(`${concurrency} concurrent: ${(n / wall).toFixed(0)} requests/s (each 3 HTTP calls); HTTP calls seen by the fake: ${fal.calls.length}`);
  addSummary({ section: "fal", figure: "submit+status+result p50 (fake fal)", value: `${fmt(total.p50, 2)} ms` });
  addSummary({ section: "fal", figure: "submit+status+result p95 (fake fal)", value: `${fmt(total.p95, 2)} ms` });
  addSummary({ section: "fal", figure: "CPU per request (adapter + fake, one process)", value: `${fmt(cpuMsPerRequest, 2)} ms` });
  addSummary({ section: "fal", figure: `requests/s, ${concurrency} concurrent`, value: `${(n / wall).toFixed(0)}` });
  addSummary({ section: "fal", figure: `training submit p50 (zip of ${refs.length} photos)`, value: `${fmt(trainD.p50, 1)} ms` });
  await fal.close();
}
