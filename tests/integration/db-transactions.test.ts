/**
 * Queries of one interactive transaction run one at a time on its connection: a read with
 * `include` of several relations inside a transaction (Prisma loads the relations concurrently)
 * gives the same rows and no pg "client is already executing a query" deprecation warning. A
 * client without the serialisation, last, shows the test would see the warning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "../../app/lib/pg-url";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);

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
  process.on("warning", onWarning);
}, 120_000);
afterAll(async () => {
  process.off("warning", onWarning);
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
  it("run their queries one at a time: same results, no pg deprecation warning", async () => {
    const reads = await readInTransaction(app.database.db);
    expect(reads.map((o) => o.items.map((i) => i.title))).toEqual([["Scarf"], ["Scarf"], ["Scarf"]]);
    await new Promise((r) => setTimeout(r, 50));
    expect(pgWarnings()).toEqual([]);
  });

  it("(control) a client without the serialisation does trigger the warning the test looks for", async () => {
    const raw = new PrismaClient({ adapter: new PrismaPg({ ...pgConfigFromUrl(app.database.url), max: 1 }) });
    try {
      await readInTransaction(raw);
      await new Promise((r) => setTimeout(r, 50));
      expect(pgWarnings().length).toBeGreaterThan(0);
    } finally {
      await raw.$disconnect();
    }
  });
});
