/**
 * A worker in a process of its own, for the kill test (tests/integration/job-kill.test.ts): it
 * runs the jobs of one queue against the test's database and, at the point named by CRASH_AT,
 * tells the parent ("reached") and stops there, still renewing its lease, until the parent kills
 * it with SIGKILL:
 * - taobao-created: the store accepted the product, the companion is not written yet;
 * - catalog-export: part of the store's products are upserted, the export is not finished.
 * Run with `node --import tsx`; env: DATABASE_URL, DATA_DIR, JOB_LEASE_MS, QUEUE, CRASH_AT.
 */
import { loadConfig } from "../../app/config.server";
import { createAppContext } from "../../app/context.server";
import { createPrismaClient } from "../../app/db.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createLogger } from "../../app/lib/logger.server";
import type { CommercePort, ProductSnapshot } from "../../app/providers/commerce/port";

const env = process.env;
const queue = env.QUEUE!;
const crashAt = env.CRASH_AT;
const config = loadConfig({ DATA_DIR: env.DATA_DIR, NODE_ENV: "test", JOB_LEASE_MS: env.JOB_LEASE_MS });
const db = createPrismaClient(env.DATABASE_URL!, { maxConnections: 1 });
const ctx = createAppContext({ config, db, log: createLogger(env.LOG_LEVEL ?? "silent") });

const reached = () => process.send?.({ reached: crashAt });
const never = () => new Promise<never>(() => {});
const real = ctx.commerce;
const wrapped: Partial<CommercePort> =
  crashAt === "taobao-created"
    ? {
        async createProduct(input) {
          await real.createProduct(input);
          reached();
          return never();
        },
      }
    : crashAt === "catalog-export"
      ? {
          async *exportAllProducts(onProgress, opts): AsyncIterable<ProductSnapshot> {
            let n = 0;
            for await (const p of real.exportAllProducts(onProgress, opts)) {
              yield p;
              if (++n === 2) {
                reached();
                await never();
              }
            }
          },
        }
      : {};
ctx.commerce = Object.assign(Object.create(real) as CommercePort, wrapped);

const worker = startWorker(ctx, { [queue]: jobHandlers[queue] }, { pollMs: 100 });
process.send?.({ ready: worker.id });
