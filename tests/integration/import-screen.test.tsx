/**
 * The Taobao import admin screens (app/routes/app.import.tsx and app.import_.$id.tsx) through their
 * loaders and actions in local mode, on the local Taobao source (the demo catalogue with its broken
 * items): the catalog.import guard, the import form (one id, several, a shop page, an unknown
 * store, bad input), the jobs list with status / text / store filters and pages, every retry
 * (one, a page, all, by error message), the polling answer, the job detail (found / 404) with its
 * retry, and both pages server-rendered with Polaris.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { DEMO_TAOBAO_CATALOGUE } from "../../app/providers/taobao/local.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { TAOBAO_IMPORT_QUEUE } from "../../app/services/taobao-import/jobs.server";
import { BROKEN, DEMO_ITEM, seedStores } from "./taobao-fixtures";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";


type ListRoute = typeof import("../../app/routes/app.import");
type DetailRoute = typeof import("../../app/routes/app.import_.$id");
let list: ListRoute;
let detail: DetailRoute;
let app: TestApp;
let importer: { token: string };
let editor: { token: string };
let vendorUser: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;

const SATIN_DRESS = "720394008919";
const HOODIE = "720394016838";
const PRICE_ZERO = "The Taobao item has a price of zero";
const NO_STORE = "Target store not found";
/** Good catalogue items other than the ones imported for real: jobs for a store that does not exist. */
const spareIds = DEMO_TAOBAO_CATALOGUE.items.map((i) => String(i.num_iid)).filter((id) => !(id in DEMO_TAOBAO_CATALOGUE.broken) && ![DEMO_ITEM, SATIN_DRESS, HOODIE].includes(id));


async function load(query = "", token: string | null = importer.token) {
  const data = await list.loader({ request: req(`/app/import${query}`, token), params: {}, context: {} });
  if (!data) throw new Error("the page's own load answered null");
  return data;
}
const act = (fields: Record<string, string>, query = "", token: string | null = importer.token) => list.action({ request: form(`/app/import${query}`, token, fields), params: {}, context: {} });
const loadJob = (id: string, token: string | null = importer.token) => detail.loader({ request: req(`/app/import/${id}`, token), params: { id }, context: {} });
const retryJob = (id: string, token: string | null = importer.token) => detail.action({ request: form(`/app/import/${id}`, token, {}), params: { id }, context: {} });


const renderList = async (query = "") => renderRoute({ id: "routes/app.import", path: "/app/import", url: `/app/import${query}`, data: await load(query), Component: list.default });

const jobOf = async (taobaoId: string, query = "") => {
  const j = (await load(`?q=${taobaoId}${query ? `&${query}` : ""}`)).list.jobs.filter((x) => x.taobaoId === taobaoId);
  expect(j.length, `jobs of ${taobaoId}`).toBeGreaterThan(0);
  return j[0]; // newest first
};
const importJobCount = () => app.database.db.importJob.count();
/**
 * Runs the queued import jobs to the end; answers how many ran. Only the import queue: imported
 * products schedule other work for later (indexing…) that would make the counts depend on timing.
 */
const drain = () => startWorker(app.ctx, { [TAOBAO_IMPORT_QUEUE]: jobHandlers[TAOBAO_IMPORT_QUEUE] }, { autoStart: false }).drain();

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.import");
  detail = await import("../../app/routes/app.import_.$id");
  importer = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "catalog.sync"] });
  stores = await seedStores(app);
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: stores.vendor.id });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs catalog.import: 403 for other admins and vendors, on both pages and both actions; login when signed out", async () => {
    for (const token of [editor.token, vendorUser.token]) {
      const res = await thrown(load("", token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
      expect((await thrown(act({ intent: "import", ids: DEMO_ITEM, store_id: stores.menswear.id }, "", token))).status).toBe(403);
      expect((await thrown(act({ intent: "retry-all" }, "", token))).status).toBe(403);
      expect((await thrown(loadJob("x", token))).status).toBe(403);
      expect((await thrown(retryJob("x", token))).status).toBe(403);
    }
    const out = await thrown(load("?status=failed", null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fimport%3Fstatus%3Dfailed");
    expect((await thrown(act({ intent: "import", ids: DEMO_ITEM, store_id: stores.menswear.id }, "", null))).status).toBe(302);
    expect(await importJobCount()).toBe(0);
  });

  it("shows Taobao import in the navigation only with catalog.import", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.import"] }).map((n) => n.url)).toContain("/app/import");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/import");
  });
});

describe("an empty page", () => {
  it("lists no job, the stores to import into (by name) and the local source", async () => {
    const data = await load();
    expect(data).toMatchObject({
      filters: { status: null, q: "", store: "" },
      list: { jobs: [], total: 0, page: 1, limit: 20, pageCount: 1, counts: { queued: 0, running: 0, completed: 0, failed: 0 } },
      errors: { groups: [], total: 0 },
      source: "local",
    });
    expect(data.stores).toEqual([
      { id: stores.menswear.id, name: "Import Menswear" },
      { id: stores.other.id, name: "Import Other" },
    ]);
    const html = await renderList();
    expect(html).toContain("No imports yet: give a Taobao item id above.");
    expect(html).toContain("Source: the local demo catalogue.");
    expect(html).toContain("Import from Taobao");
    expect(html).not.toContain('data-testid="import-error-group"');
  });
});

describe("the import form", () => {
  it("imports one id: queued at 0 %, then completed with the created product", async () => {
    const submitted = await act({ intent: "import", ids: DEMO_ITEM, store_id: stores.menswear.id });
    expect(submitted).toEqual({ ok: true, message: "1 item queued for import.", batch: { id: expect.any(String), queued: 1 } });
    const batchId = submitted.ok && "batch" in submitted ? submitted.batch.id : "";
    // The banner follows the batch through the poll: its counts by status, until nothing is left to run.
    expect((await load(`?poll=1&batch=${batchId}`)).batch).toEqual({ id: batchId, counts: { queued: 1, running: 0, completed: 0, failed: 0 } });
    expect((await load()).batch).toBeNull();
    const queued = await load();
    expect(queued.list.counts).toEqual({ queued: 1, running: 0, completed: 0, failed: 0 });
    expect(queued.list.jobs).toEqual([
      {
        id: expect.any(String),
        taobaoId: DEMO_ITEM,
        store: "Import Menswear",
        status: "queued",
        progress: 0,
        step: null,
        attempts: 0,
        maxAttempts: 4,
        error: null,
        retryAt: null,
        title: null,
        action: null,
        productId: null,
        createdAt: expect.any(String),
      },
    ]);
    // What the browser gets: only JSON-safe values (dates as ISO strings).
    expect(JSON.parse(JSON.stringify(queued))).toEqual(queued);

    expect(await drain()).toBe(1);
    expect((await load(`?poll=1&batch=${batchId}`)).batch).toEqual({ id: batchId, counts: { queued: 0, running: 0, completed: 1, failed: 0 } });
    const done = await jobOf(DEMO_ITEM);
    expect(done).toMatchObject({ status: "completed", progress: 100, step: "propose", attempts: 1, error: null, title: "Boxy Silk Shirt", action: "created", productId: expect.stringMatching(/^gid:\/\/shopify\/Product\//) });
  });

  it("imports several ids given as text, with a broken item, and says which were given twice", async () => {
    const ids = `${SATIN_DRESS}, ${HOODIE}\nhttps://item.taobao.com/item.htm?id=${SATIN_DRESS} ${BROKEN.zeroPrice}`;
    expect(await act({ intent: "import", ids, store_id: stores.other.id })).toEqual({ ok: true, message: "3 items queued for import; 1 given twice.", batch: { id: expect.any(String), queued: 3 } });
    expect((await load()).list.counts).toMatchObject({ queued: 3, completed: 1 });
    expect(await drain()).toBe(3);
    expect(await jobOf(SATIN_DRESS)).toMatchObject({ status: "completed", store: "Import Other", action: "created" });
    expect(await jobOf(HOODIE)).toMatchObject({ status: "completed", store: "Import Other" });
    expect(await jobOf(BROKEN.zeroPrice)).toMatchObject({ status: "failed", error: PRICE_ZERO, step: "map", productId: null, title: null });
  });

  it("imports a page of a shop, saying which page of which shop", async () => {
    const shop = DEMO_TAOBAO_CATALOGUE.shops[0]; // 14 items: two pages
    const items = DEMO_TAOBAO_CATALOGUE.items.filter((i) => i.shop_id === shop.shop_id && !(String(i.num_iid) in DEMO_TAOBAO_CATALOGUE.broken));
    const pages = Math.ceil(items.length / DEMO_TAOBAO_CATALOGUE.pageSize);
    expect(pages).toBeGreaterThan(1);
    const onPage2 = Math.min(DEMO_TAOBAO_CATALOGUE.pageSize, items.length - DEMO_TAOBAO_CATALOGUE.pageSize);
    const before = await importJobCount();
    expect(await act({ intent: "import", ids: `shop:${shop.shop_id}`, page: "2", store_id: stores.other.id })).toEqual({
      ok: true,
      message: `${onPage2} ${onPage2 === 1 ? "item" : "items"} queued for import; from page 2 of ${pages} of ${shop.shop_title}.`,
      batch: { id: expect.any(String), queued: onPage2 },
    });
    expect(await importJobCount()).toBe(before + onPage2);
    // Not run here (they would take a while): removed with their queue jobs.
    await app.database.db.importJob.deleteMany({ where: { page: 2 } });
    await app.database.db.job.deleteMany({ where: { queue: "taobao.import", status: "queued" } });
  });

  it("an unknown store refuses every item with a clear error (the refused jobs stay in the table)", async () => {
    const r = await act({ intent: "import", ids: spareIds.slice(0, 25).join("\n"), store_id: "no-such-store" });
    expect(r).toEqual({ ok: false, error: `No item was queued: ${NO_STORE}.` });
    const refused = (await load("?q=no-such-store")).list;
    expect(refused.total).toBe(25);
    expect(refused.jobs.every((j) => j.status === "failed" && j.error === NO_STORE && j.store === "no-such-store")).toBe(true);
    expect(await app.database.db.job.count({ where: { queue: "taobao.import", status: "queued" } })).toBe(0);
  });

  it("an item already being imported is refused, the others queued", async () => {
    expect(await act({ intent: "import", ids: BROKEN.zeroPrice, store_id: stores.menswear.id })).toEqual({ ok: true, message: "1 item queued for import.", batch: { id: expect.any(String), queued: 1 } });
    expect(await act({ intent: "import", ids: BROKEN.zeroPrice, store_id: stores.menswear.id })).toEqual({
      ok: false,
      error: "No item was queued: This Taobao item is already being imported by another job.",
    });
    expect(await act({ intent: "import", ids: `${BROKEN.zeroPrice} ${BROKEN.noSkus}`, store_id: stores.menswear.id })).toEqual({
      ok: true,
      message: "1 item queued for import; 1 refused (see the table).",
      batch: { id: expect.any(String), queued: 1 },
    });
    expect(await drain()).toBe(2);
    // The same bad item now failed in both stores; no SKUs once.
    expect((await load("?q=price of zero")).list.jobs.map((j) => j.store).sort()).toEqual(["Import Menswear", "Import Other"]);
    await app.database.db.importJob.deleteMany({ where: { error_message: "This Taobao item is already being imported by another job" } });
  });

  it("bad input gets the validation error and creates nothing", async () => {
    const before = await importJobCount();
    const cases: [Record<string, string>, string][] = [
      [{ ids: "", store_id: stores.menswear.id }, "taobao_product_id is required"],
      [{ ids: "   \n ", store_id: stores.menswear.id }, "taobao_product_id is required"],
      [{ store_id: stores.menswear.id }, "taobao_product_id is required"],
      [{ ids: "123abc, https://example.com/item?id=5", store_id: stores.menswear.id }, "Not a Taobao item id, item URL or shop: 123abc, https://example.com/item?id=5"],
      [{ ids: DEMO_ITEM }, "Choose the store to import into"],
      [{ ids: DEMO_ITEM, store_id: "  " }, "Choose the store to import into"],
      [{ ids: Array.from({ length: 101 }, (_, i) => String(720000000000 + i)).join(" "), store_id: stores.menswear.id }, "At most 100 ids at a time"],
      [{ ids: "shop:999999", store_id: stores.menswear.id }, "Taobao shop 999999 was not found"],
      [{ ids: `shop:${DEMO_TAOBAO_CATALOGUE.shops[0].shop_id}`, page: "50", store_id: stores.menswear.id }, `Page 50 of Taobao shop ${DEMO_TAOBAO_CATALOGUE.shops[0].shop_id} has no items`],
    ];
    for (const [fields, error] of cases) {
      const r = await act({ intent: "import", ...fields });
      expect(r.ok, JSON.stringify(fields)).toBe(false);
      expect(r.ok ? "" : r.error, JSON.stringify(fields)).toContain(error);
    }
    const page0 = await act({ intent: "import", ids: `shop:${DEMO_TAOBAO_CATALOGUE.shops[0].shop_id}`, page: "0", store_id: stores.menswear.id });
    expect(page0.ok).toBe(false);
    expect(await act({ intent: "explode" })).toEqual({ ok: false, error: "Unknown action" });
    expect(await act({})).toEqual({ ok: false, error: "Unknown action" });
    expect(await importJobCount()).toBe(before);
  });
});

describe("the target store", () => {
  it("has no default: the form asks to choose one (placeholder, no store selected)", async () => {
    const html = await renderList();
    const select = html.slice(html.indexOf('name="store_id"') - 2000, html.indexOf('name="store_id"') + 2000);
    expect(select).toContain("Target store");
    expect(select).toContain('<option value="" disabled="" selected="">Choose a store</option>');
    // What the closed select shows: the placeholder, not the first store.
    expect(select).toMatch(/Polaris-Select__SelectedOption"[^>]*>Choose a store</);
    expect(select).not.toMatch(/<option value="[^"]+" selected=""/);
    expect(select).toContain("The store the imported products are added to.");
  });

  it("a submission without a store is the store field's error and queues nothing", async () => {
    const before = await importJobCount();
    expect(await act({ intent: "import", ids: DEMO_ITEM })).toEqual({ ok: false, error: "Choose the store to import into", field: "store_id" });
    expect(await act({ intent: "import", ids: DEMO_ITEM, store_id: "" })).toEqual({ ok: false, error: "Choose the store to import into", field: "store_id" });
    expect(await importJobCount()).toBe(before);
  });
});

describe("the jobs list", () => {
  it("pages newest first, 20 a page, with counts per status", async () => {
    const first = await load();
    const total = first.list.total;
    // 25 refused + 3 silk shirt / dress / hoodie + 2 price of zero + 1 no SKUs.
    expect(total).toBe(31);
    expect(first.list).toMatchObject({ page: 1, limit: 20, pageCount: 2, counts: { queued: 0, running: 0, completed: 3, failed: 28 } });
    expect(first.list.jobs).toHaveLength(20);
    const second = await load("?page=2");
    expect(second.list.page).toBe(2);
    expect(second.list.jobs).toHaveLength(11);
    const all = [...first.list.jobs, ...second.list.jobs];
    expect(new Set(all.map((j) => j.id)).size).toBe(31);
    const times = all.map((j) => j.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.at(-1)!.taobaoId).toBe(DEMO_ITEM); // the first import
    // A page out of range is empty; a bad page number is page 1.
    expect((await load("?page=9")).list).toMatchObject({ jobs: [], page: 9, total: 31 });
    expect((await load("?page=abc")).list.page).toBe(1);
    expect((await load("?page=-3")).list.page).toBe(1);
  });

  it("filters by status, text and store; an unknown status is ignored", async () => {
    const failed = await load("?status=failed");
    expect(failed.filters.status).toBe("failed");
    expect(failed.list.total).toBe(28);
    expect(failed.list.counts).toMatchObject({ completed: 3, failed: 28 }); // counts ignore the status
    expect(failed.list.jobs.every((j) => j.status === "failed")).toBe(true);
    const completed = await load("?status=completed");
    expect(completed.list.jobs.map((j) => j.taobaoId).sort()).toEqual([DEMO_ITEM, SATIN_DRESS, HOODIE].sort());
    expect((await load("?status=exploded")).filters.status).toBeNull();
    expect((await load("?status=exploded")).list.total).toBe(31);

    expect((await load("?q=boxy silk")).list.jobs.map((j) => j.taobaoId)).toEqual([DEMO_ITEM]); // product title
    expect((await load(`?q=${SATIN_DRESS}`)).list.jobs.map((j) => j.title)).toEqual([expect.any(String)]); // Taobao id
    const byError = await load("?q=PRICE OF ZERO");
    expect(byError.filters.q).toBe("PRICE OF ZERO");
    expect(byError.list.jobs.map((j) => j.taobaoId)).toEqual([BROKEN.zeroPrice, BROKEN.zeroPrice]);
    expect((await load("?q=import menswear")).list.total).toBe(3); // store name: shirt, price of zero, no SKUs
    expect((await load("?q=%20%20")).filters.q).toBe("");

    const other = await load(`?store=${stores.other.id}`);
    expect(other.filters.store).toBe(stores.other.id);
    expect(other.list.jobs.map((j) => j.taobaoId).sort()).toEqual([SATIN_DRESS, HOODIE, BROKEN.zeroPrice].sort());
    expect(other.list.counts).toEqual({ queued: 0, running: 0, completed: 2, failed: 1 });
    // The error groups follow the store filter.
    expect(other.errors).toEqual({ groups: [{ message: PRICE_ZERO, count: 1, step: "map", last_at: expect.any(String) }], total: 1 });
    expect((await load(`?store=${stores.other.id}&status=failed&q=zero`)).list.jobs.map((j) => j.taobaoId)).toEqual([BROKEN.zeroPrice]);
  });

  it("groups the failed jobs by error message, most frequent first", async () => {
    const { errors } = await load();
    expect(errors.total).toBe(28);
    expect(errors.groups.map((g) => [g.message, g.count, g.step])).toEqual([
      [NO_STORE, 25, "fetch"],
      [PRICE_ZERO, 2, "map"],
      ["The Taobao item has no SKUs: there is nothing to sell", 1, "map"],
    ]);
  });

  it("renders the jobs table with its statuses, results, errors, retry buttons, error groups and pages", async () => {
    const html = await renderList();
    expect(html).toContain("Taobao import");
    for (const h of ["Taobao item", "Store", "Status", "Progress", "Result", "Attempts"]) expect(html).toContain(`>${h}<`);
    expect(html.match(/data-testid="import-job-link"/g)).toHaveLength(20);
    expect(html).toMatch(new RegExp(`data-testid="import-status-${BROKEN.noSkus}"><span[^>]*>(<span[^>]*>[^<]*</span>)*<span[^>]*>Failed<`));
    expect(html).toContain(`data-testid="import-error-${BROKEN.noSkus}">The Taobao item has no SKUs: there is nothing to sell</span>`);
    expect(html).toContain(`aria-label="Retry ${BROKEN.noSkus}"`);
    expect(html).toContain("Failed at mapping");
    expect(html).toContain("Failed at fetching the item");
    expect(html.match(/aria-label="Retry \d+"/g)).toHaveLength(20);
    // Error groups with their counts and a Retry per group, and the chart of them.
    expect(html.match(/data-testid="import-error-group"/g)).toHaveLength(3);
    expect(html).toContain("28 failed jobs");
    expect(html).toContain(`aria-label="Retry 25 with “${NO_STORE}”"`);
    expect(html).toContain("Retry 25");
    expect(html).toContain(`aria-label="Retry 2 with “${PRICE_ZERO}”"`);
    // Tabs with counts, the pages and the status chart.
    expect(html).toContain("Failed (28)");
    expect(html).toContain("Completed (3)");
    expect(html).toContain("All (31)");
    expect(html).toContain("1–20 of 31");
    expect(html).toContain("Page 1 of 2");
    expect(html).toContain("Jobs by status");
    expect(html).not.toContain("updating every second");
    expect(html).not.toContain('data-testid="import-progress"');

    // Completed jobs: the created product, a full bar, no Retry.
    const completed = await renderList("?status=completed");
    expect(completed).toMatch(new RegExp(`data-testid="import-status-${DEMO_ITEM}"><span[^>]*>(<span[^>]*>[^<]*</span>)*<span[^>]*>Completed<`));
    expect(completed).toContain(">Boxy Silk Shirt</span></a>");
    expect(completed).toContain(`href="/app/products/${encodeURIComponent((await jobOf(DEMO_ITEM)).productId!)}"`);
    expect(completed.match(/<progress[^>]*value="100"/g)).toHaveLength(3);
    expect(completed).not.toMatch(/aria-label="Retry \d+"/);
    expect(completed).toContain("1–3 of 3");

    // The store filter: the errors of that store only.
    const other = await renderList(`?store=${stores.other.id}`);
    expect(other.match(/data-testid="import-error-group"/g)).toHaveLength(1);
    expect(other).toContain("1 failed job in Import Other");
    expect(other).toContain("Store: Import Other");
  });
});

describe("retries", () => {
  it("retries one failed job; refuses a job that is not failed, an unknown one, and no job", async () => {
    const failed = await jobOf(BROKEN.noSkus);
    expect(await act({ intent: "retry", jobId: failed.id })).toEqual({ ok: true, message: "The job is queued again." });
    const queued = await jobOf(BROKEN.noSkus);
    expect(queued).toMatchObject({ id: failed.id, status: "queued", attempts: 0, progress: 0, error: null, step: null });
    expect(await act({ intent: "retry", jobId: failed.id })).toEqual({ ok: false, error: "Only failed import jobs can be retried (this one is queued)" });
    const done = await jobOf(DEMO_ITEM);
    expect(await act({ intent: "retry", jobId: done.id })).toEqual({ ok: false, error: "Only failed import jobs can be retried (this one is completed)" });
    expect(await act({ intent: "retry", jobId: "no-such-job" })).toEqual({ ok: false, error: "Import job not found" });
    expect(await act({ intent: "retry" })).toEqual({ ok: false, error: "Choose a job to retry" });

    // While it waits, the page shows its progress bar and says it updates.
    const html = await renderList();
    expect(html).toMatch(/data-testid="import-progress"><div[^>]*><progress[^>]*value="0"/);
    expect(html).toContain("Queued…");
    expect(html).toContain("updating every second");
    expect((await load()).errors.total).toBe(27);

    expect(await drain()).toBe(1);
    expect(await jobOf(BROKEN.noSkus)).toMatchObject({ status: "failed", attempts: 1, error: "The Taobao item has no SKUs: there is nothing to sell" });
  });

  it("retries the failed jobs of the page shown (its filters and page number)", async () => {
    const page2 = await load("?status=failed&page=2");
    const ids = page2.list.jobs.map((j) => j.id);
    expect(ids).toHaveLength(8);
    expect(await act({ intent: "retry-page" }, "?status=failed&page=2")).toEqual({ ok: true, message: "8 failed jobs of this page queued again." });
    const rows = await app.database.db.importJob.findMany({ where: { status: "queued" }, select: { id: true } });
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(await act({ intent: "retry-page" }, "?status=completed")).toEqual({ ok: true, message: "No failed job on this page." });
    expect(await act({ intent: "retry-page" }, `?q=${BROKEN.noSkus}`)).toEqual({ ok: true, message: "1 failed job of this page queued again." });
    expect(await drain()).toBe(9);
    expect((await load()).list.counts).toEqual({ queued: 0, running: 0, completed: 3, failed: 28 });
  });

  it("retries by error message, within the store the page is filtered by", async () => {
    // Filtered by a store, the group counts that store's jobs: its Retry retries those only.
    const other = await load(`?store=${stores.other.id}`);
    expect(other.errors.groups).toEqual([expect.objectContaining({ message: PRICE_ZERO, count: 1 })]);
    expect(await act({ intent: "retry-message", message: PRICE_ZERO, store_id: stores.other.id })).toEqual({ ok: true, message: "1 job with this error queued again." });
    expect((await load(`?q=${BROKEN.zeroPrice}`)).list.jobs.map((j) => [j.store, j.status]).sort()).toEqual([
      ["Import Menswear", "failed"],
      ["Import Other", "queued"],
    ]);
    expect(await drain()).toBe(1);
    // Without a store, every job with the message.
    expect(await act({ intent: "retry-message", message: PRICE_ZERO })).toEqual({ ok: true, message: "2 jobs with this error queued again." });
    expect(await act({ intent: "retry-message", message: "no such message" })).toEqual({ ok: true, message: "0 jobs with this error queued again." });
    expect(await act({ intent: "retry-message", message: "  " })).toEqual({ ok: false, error: "Choose an error message" });
    expect(await act({ intent: "retry-message" })).toEqual({ ok: false, error: "Choose an error message" });
    expect(await drain()).toBe(2);
    expect((await load()).errors.groups.find((g) => g.message === PRICE_ZERO)?.count).toBe(2);
  });

  it("retries every failed job, or those of one store; bad input fails again with its message", async () => {
    expect(await act({ intent: "retry-all", store_id: stores.other.id })).toEqual({ ok: true, message: "1 failed job queued again." });
    expect(await drain()).toBe(1);
    expect(await act({ intent: "retry-all" })).toEqual({ ok: true, message: "28 failed jobs queued again." });
    expect((await load()).list.counts).toEqual({ queued: 28, running: 0, completed: 3, failed: 0 });
    expect((await load()).errors).toEqual({ groups: [], total: 0 });
    expect(await act({ intent: "retry-all" })).toEqual({ ok: true, message: "0 failed jobs queued again." });
    expect(await drain()).toBe(28);
    const { errors, list: jobs } = await load();
    expect(jobs.counts).toEqual({ queued: 0, running: 0, completed: 3, failed: 28 });
    expect(errors.groups.map((g) => [g.message, g.count])).toEqual([
      [NO_STORE, 25],
      [PRICE_ZERO, 2],
      ["The Taobao item has no SKUs: there is nothing to sell", 1],
    ]);
  });
});

describe("polling", () => {
  it("a poll answers the same list without the stores; a failing poll answers null, the page's own load fails loudly", async () => {
    const polled = await load("?poll=1&status=completed");
    expect(polled.stores).toEqual([]);
    expect(polled.list.total).toBe(3);
    expect(new Date(polled.now).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const db = app.ctx.db;
    const broken = new Proxy(db, {
      get: (t, p) => (p === "importJob" ? { ...t.importJob, count: async () => Promise.reject(new Error("connection lost")) } : Reflect.get(t, p)),
    });
    setAppContext({ ...app.ctx, db: broken });
    try {
      expect(await list.loader({ request: req("/app/import?poll=1", importer.token), params: {}, context: {} })).toBeNull();
      await expect(list.loader({ request: req("/app/import", importer.token), params: {}, context: {} })).rejects.toThrow("connection lost");
      expect((await thrown(list.loader({ request: req("/app/import?poll=1", editor.token), params: {}, context: {} }))).status).toBe(403);
    } finally {
      setAppContext(app.ctx);
    }
  });
});

describe("the job detail page", () => {
  it("shows a completed job with its source payload and created product", async () => {
    const row = await jobOf(DEMO_ITEM);
    const data = await loadJob(row.id);
    expect(data.job).toMatchObject({
      id: row.id,
      taobao_product_id: DEMO_ITEM,
      store_id: stores.menswear.id,
      store_name: "Import Menswear",
      status: "completed",
      progress: 100,
      attempts: 1,
      error_message: null,
      product_id: row.productId,
      product: { id: row.productId, title: "Boxy Silk Shirt", status: "active" },
      result: { action: "created", title: "Boxy Silk Shirt", taobao_title: "2026春夏新款男廓形真丝衬衫 百搭", translation: "local" },
      source_payload: { id: DEMO_ITEM, title: "2026春夏新款男廓形真丝衬衫 百搭", priceCny: 269 },
    });
    expect(data.job.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(data.job.completed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.parse(data.sourceJson!)).toEqual(data.job.source_payload);
    expect(data.sourceJson).toContain(`"id": "${DEMO_ITEM}"`);

    const html = await renderRoute({ id: "routes/app.import_.$id", path: "/app/import/:id", url: `/app/import/${row.id}`, data, Component: detail.default });
    expect(html).toContain(`Taobao item ${DEMO_ITEM}`);
    expect(html).toContain("Into Import Menswear");
    expect(html).toContain("Created product");
    expect(html).toContain(`data-testid="import-product-link"`);
    expect(html).toContain(`href="/app/products/${encodeURIComponent(row.productId!)}"`);
    expect(html).toContain("What the import did");
    expect(html).toContain("CNY × 0.14 × 2.5, ending .99");
    expect(html).toContain('data-testid="import-source-payload"');
    expect(html).toContain("真丝衬衫");
    expect(html).not.toContain("The import failed");

    expect(await retryJob(row.id)).toEqual({ ok: false, error: "Only failed import jobs can be retried (this one is completed)" });
  });

  it("shows a failed job with its error and no source payload, and retries it", async () => {
    const row = (await load(`?q=${spareIds[0]}`)).list.jobs[0];
    const data = await loadJob(row.id);
    expect(data.job).toMatchObject({ status: "failed", error_message: NO_STORE, store_id: null, store_name: "no-such-store", product: null, source_payload: null });
    expect(data.sourceJson).toBeNull();
    const html = await renderRoute({ id: "routes/app.import_.$id", path: "/app/import/:id", url: `/app/import/${row.id}`, data, Component: detail.default });
    expect(html).toContain("The import failed");
    expect(html).toContain(`data-testid="import-job-error">${NO_STORE}</span>`);
    expect(html).toContain("The item was not fetched (the job failed before or while fetching it).");
    expect(html).toContain(">Retry<");

    expect(await retryJob(row.id)).toEqual({ ok: true, message: "The job is queued again." });
    expect((await loadJob(row.id)).job).toMatchObject({ status: "queued", attempts: 0, error_message: null });
    expect(await drain()).toBe(1);
    expect((await loadJob(row.id)).job).toMatchObject({ status: "failed", error_message: NO_STORE });
  });

  it("answers 404 for an unknown job, and its retry says so", async () => {
    const res = await thrown(loadJob("no-such-job"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ staffError: "This import job does not exist" });
    expect(await retryJob("no-such-job")).toEqual({ ok: false, error: "Import job not found" });
  });
});
