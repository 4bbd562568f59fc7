/**
 * A worker killed mid-job (SIGKILL, a process of its own: tests/helpers/job-worker-child.ts)
 * leaves its job running under a lease nobody renews; once it expires, this process's worker
 * takes the job over and finishes it with nothing duplicated or half-made: a Taobao import killed
 * after the store accepted the product (before its companion), a catalogue sync killed half-way
 * through the store's products. Short leases (JOB_LEASE_MS) keep it quick.
 *
 * On PGlite the child reaches the same database through the embedded server's socket; this
 * process stays off the database while the child lives (pglite-socket must not serve two clients'
 * statements at once), so the "lease still held" check runs on PostgreSQL only.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct } from "./products-fixtures";
import { DEMO_ITEM, seedStores } from "./taobao-fixtures";

const LEASE_MS = 1500;
let app: TestApp;
let admin: { id: string; token: string };
const db = () => app.database.db;

beforeAll(async () => {
  app = await createTestApp({ env: { JOB_LEASE_MS: String(LEASE_MS) } });
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.sync"] });
});
afterAll(() => app?.close());

/** Starts the child worker on `queue`; resolves with it once it stopped at `crashAt`. */
async function childStoppedAt(queue: string, crashAt: string): Promise<{ child: ChildProcess; workerId: string }> {
  const child = fork(path.join(__dirname, "../helpers/job-worker-child.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: app.database.url, DATA_DIR: app.dataDir, JOB_LEASE_MS: String(LEASE_MS), QUEUE: queue, CRASH_AT: crashAt },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let workerId = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child worker did not reach ${crashAt}`)), 90_000);
    child.on("message", (m: { ready?: string; reached?: string }) => {
      if (m.ready) workerId = m.ready;
      if (m.reached) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`the child worker exited (${code}) before ${crashAt}`)));
  });
  return { child, workerId };
}

async function kill(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

/** This process's worker: runs `queue` until the job ends (taken over once the dead child's lease expired). */
async function takeOver(queue: string, jobId: string) {
  const worker = startWorker(app.ctx, { [queue]: jobHandlers[queue] }, { autoStart: false });
  await expect
    .poll(
      async () => {
        await worker.drain();
        return (await db().job.findUniqueOrThrow({ where: { id: jobId } })).status;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe("completed");
}

async function expectLeaseHeld(queue: string) {
  if (app.database.kind !== "postgres") return;
  // Two lease periods into the hang, the child still renews: nobody can take the job.
  await new Promise((r) => setTimeout(r, LEASE_MS * 2));
  expect(await app.ctx.queue.claim("intruder", [queue])).toBeNull();
}

describe("a worker killed mid-job (SIGKILL)", () => {
  it("a Taobao import killed after the store accepted the product ends with one product and its companion", async () => {
    const { menswear } = await seedStores(app);
    const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: menswear.id } });
    expect(r.status).toBe(202);
    const importJobId = r.body.jobs[0].id as string;
    const jobId = (await db().job.findUniqueOrThrow({ where: { dedupe_key: `taobao.import:${importJobId}` } })).id;

    const { child, workerId } = await childStoppedAt("taobao.import", "taobao-created");
    await expectLeaseHeld("taobao.import");
    await kill(child);

    // What the dead process left: the job and the import running, a product without companion.
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "running", locked_by: workerId, attempts: 1 });
    expect(await db().importJob.findUniqueOrThrow({ where: { id: importJobId } })).toMatchObject({ status: "running", step: "create" });
    const skus = { variants: { some: { sku: { startsWith: `TB-${DEMO_ITEM}-` } } } };
    expect(await db().product.count({ where: { ...skus, companion: null } })).toBe(1);

    await takeOver("taobao.import", jobId);
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ attempts: 2, locked_by: null });
    const importJob = await db().importJob.findUniqueOrThrow({ where: { id: importJobId } });
    expect(importJob).toMatchObject({ status: "completed", attempts: 2, progress: 100 });
    const products = await db().product.findMany({ where: skus, include: { companion: true, variants: true } });
    expect(products).toHaveLength(1);
    expect(products[0].companion?.taobao_id).toBe(DEMO_ITEM);
    expect(importJob.product_id).toBe(products[0].id);
    expect(products[0].variants.every((v) => v.taobao_sku_id)).toBe(true);
    expect(await db().proposedVariantImage.count({ where: { product_id: products[0].id } })).toBeGreaterThan(0);
  }, 180_000);

  it("a catalogue sync killed half-way through the store's products is finished by another worker, nothing duplicated", async () => {
    const { other } = await seedStores(app);
    for (let n = 0; n < 6; n++) await createProduct(db(), { n: 9100 + n, title: `Killed Sync ${n}`, storeId: other.id, vendor: other.name });
    const { jobId } = (await app.api("POST", `/catalog-sync/stores/${other.id}/sync`, { token: admin.token })).body as { jobId: string };

    const { child, workerId } = await childStoppedAt("catalog.sync", "catalog-export");
    await expectLeaseHeld("catalog.sync");
    await kill(child);
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "running", locked_by: workerId });
    // The store's next sync waits for this one (it will be restarted), it is not swallowed nor doubled.
    expect((await app.api("POST", `/catalog-sync/stores/${other.id}/sync`, { token: admin.token })).body.jobId).toBe(jobId);

    await takeOver("catalog.sync", jobId);
    const job = await db().job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ attempts: 2, progress: 100 });
    expect(job.result).toMatchObject({ removed: 0 });
    expect(await db().product.count({ where: { store_id: other.id } })).toBe(6);
    expect(await db().product.count({ where: { title: { startsWith: "Killed Sync" } } })).toBe(6);
    expect((await app.api("GET", `/catalog-sync/jobs/${jobId}`, { token: admin.token })).body.status).toBe("completed");
  }, 180_000);
});
