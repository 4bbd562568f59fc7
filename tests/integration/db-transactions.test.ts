/**
 * Queries of one interactive transaction run one at a time on its connection: a read with
 * `include` of several relations inside a transaction (Prisma loads the relations concurrently)
 * gives the same rows and no pg "client is already executing a query" deprecation warning. A
 * client without the serialisation, last, shows the test would see the concurrency.
 *
 * The concurrency is observed on pg's clients directly (every `client.query()` issued while the
 * same client still has a query running), not only through the deprecation warning: Node emits a
 * deprecation once per process, so the warning alone cannot tell a second source from the first.
 * The control triggers pg's deprecation on purpose and runs with deprecations silenced, so the
 * integration run's output shows the warning only when product code causes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Prisma, PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "../../app/lib/pg-url";
import { createPrismaClient } from "../../app/db.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);

/** For each `client.query()` issued on a busy client: how many queries it already had running. */
const busyCalls: number[] = [];
const inFlight = new WeakMap<object, number>();
type QueryFn = (this: object, ...args: unknown[]) => unknown;
const clientProto = pg.Client.prototype as unknown as { query: QueryFn };
const originalQuery = clientProto.query;
function watchClientQueries() {
  clientProto.query = function (this: object, ...args: unknown[]) {
    const running = inFlight.get(this) ?? 0;
    if (running > 0) busyCalls.push(running);
    inFlight.set(this, running + 1);
    const done = () => inFlight.set(this, Math.max(0, (inFlight.get(this) ?? 1) - 1));
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (...r: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...r);
      };
      return originalQuery.apply(this, args);
    }
    const result = originalQuery.apply(this, args) as { then?: unknown; once?: unknown } | undefined;
    if (result && typeof result.then === "function") (result as Promise<unknown>).then(done, done);
    else if (result && typeof result.once === "function") {
      const emitter = result as unknown as { once(event: string, fn: () => void): void };
      emitter.once("end", done);
      emitter.once("error", done);
    }
    return result;
  };
}

beforeAll(async () => {
  app = await createTestApp();
  const user = await app.createUser();
  await app.database.db.order.create({
    data: {
      id: "gid://shopify/Order/9701",
      name: "#9701",
      user_id: user.id,
      subtotal_price: new Prisma.Decimal(10),
      total_price: new Prisma.Decimal(10),
      items: { create: [{ id: "gid://shopify/LineItem/97010", title: "Scarf", quantity: 1, price: new Prisma.Decimal(10), status: "delivered" }] },
    },
  });
  watchClientQueries();
  process.on("warning", onWarning);
}, 120_000);
afterAll(async () => {
  process.off("warning", onWarning);
  clientProto.query = originalQuery;
  await app?.close();
});

const include = { items: true, return_requests: true, returns: { include: { line_items: true } } } satisfies Prisma.OrderInclude;
const readInTransaction = (db: PrismaClient) =>
  db.$transaction(async (tx) => {
    const reads = await Promise.all([1, 2, 3].map(() => tx.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/9701" }, include })));
    await tx.order.update({ where: { id: "gid://shopify/Order/9701" }, data: { note: "read" } });
    return reads;
  });
const pgWarnings = () => warnings.filter((m) => /already executing a query/.test(m));

describe("interactive transactions", () => {
  it("run their queries one at a time: same results, no query on a busy pg client, no pg deprecation warning", async () => {
    busyCalls.length = 0;
    const reads = await readInTransaction(app.database.db);
    expect(reads.map((o) => o.items.map((i) => i.title))).toEqual([["Scarf"], ["Scarf"], ["Scarf"]]);
    await new Promise((r) => setTimeout(r, 50));
    expect(busyCalls).toEqual([]);
    expect(pgWarnings()).toEqual([]);
  });

  it("(control) a client without the serialisation queries a busy pg client as pg deprecates, silently", async () => {
    busyCalls.length = 0;
    const raw = new PrismaClient({ adapter: new PrismaPg({ ...pgConfigFromUrl(app.database.url), max: 1 }) });
    // pg would print its deprecation to the run's output, where it reads like a product bug.
    const noDeprecation = process.noDeprecation;
    process.noDeprecation = true;
    try {
      const reads = await readInTransaction(raw);
      expect(reads).toHaveLength(3);
      await new Promise((r) => setTimeout(r, 50));
      // pg warns when a query is issued while one runs and another already waits behind it.
      expect(Math.max(0, ...busyCalls)).toBeGreaterThanOrEqual(2);
      expect(pgWarnings()).toEqual([]);
    } finally {
      process.noDeprecation = noDeprecation;
      await raw.$disconnect();
    }
  });
});

// A second connection holds a row lock, which the one-connection embedded database cannot serve.
describe.skipIf(!process.env.TEST_DATABASE_URL)("a transaction that timed out (PostgreSQL)", () => {
  it("runs nothing more once its rollback is queued: the rest of a half-done nested write is refused, not auto-committed", async () => {
    const orderId = "gid://shopify/Order/9701";
    const lateItem = "gid://shopify/LineItem/97099";
    const noteBefore = (await app.database.db.order.findUniqueOrThrow({ where: { id: orderId } })).note;
    const db = createPrismaClient(app.database.url, { maxConnections: 2 });
    const locker = new pg.Client(pgConfigFromUrl(app.database.url));
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM orders WHERE id = $1 FOR UPDATE", [orderId]);
      // The UPDATE waits for the lock past the 200 ms timeout; Prisma queues ROLLBACK, and the
      // nested INSERT of the line item would follow on a connection already back in the pool.
      const outcome = db
        .$transaction(
          (tx) =>
            tx.order.update({
              where: { id: orderId },
              data: { note: "stale", items: { create: [{ id: lateItem, title: "Hat", quantity: 1, price: new Prisma.Decimal(5), status: "delivered" }] } },
              include: { items: true },
            }),
          { timeout: 200 },
        )
        .then(
          () => "committed",
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );
      await new Promise((r) => setTimeout(r, 500));
      await locker.query("COMMIT");
      expect(await outcome).not.toBe("committed");
      await new Promise((r) => setTimeout(r, 300));
      expect(await app.database.db.orderItem.findUnique({ where: { id: lateItem } })).toBeNull();
      expect((await app.database.db.order.findUniqueOrThrow({ where: { id: orderId } })).note).toBe(noteBefore);
    } finally {
      await locker.end().catch(() => undefined);
      await db.$disconnect();
    }
  });
});
