/**
 * The catalogue sync over the demo catalogue in local mode: every store's export matches its read
 * model (nothing created, updated or removed), so a sync is safe to run at any time.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";
import { runCatalogSync } from "../../app/services/catalog-sync.server";

let app: TestApp;
beforeAll(async () => {
  app = await createDemoTestApp();
});
afterAll(() => app?.close());

it("syncing every demo store changes nothing and links every product", async () => {
  const stores = await app.database.db.store.findMany({ select: { id: true } });
  let total = 0;
  const started = Date.now();
  for (const s of stores) {
    const r = await runCatalogSync(app.ctx, { storeId: s.id }, async () => undefined);
    expect(r).toMatchObject({ created: 0, updated: 0, removed: 0 });
    expect(r.unchanged).toBe(r.total);
    total += r.total;
  }
  expect(total).toBe(await app.database.db.product.count({ where: { store_id: { not: null } } }));
  expect(total).toBeGreaterThan(500);
  console.log(`synced ${total} products of ${stores.length} stores in ${Date.now() - started} ms`);
}, 180_000);
