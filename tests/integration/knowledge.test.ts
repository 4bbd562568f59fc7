/**
 * The knowledge base API (app/contract/knowledge.ts): admins with `knowledge.manage` list, create,
 * edit and delete entries and try questions; anyone reads one entry; shoppers, guests, vendors and
 * admins without the permission are refused. Then the assistant: it retrieves the demo entries and
 * cites them ("How do I wash linen?", "Does this run small?" on a pair of jeans), and the citations
 * stay with the stored answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedKnowledgeDemo } from "../../prisma/demo/knowledge";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let manager: string;
let shopper: string;
let guest: string;
let otherAdmin: string;
let vendor: string;

beforeAll(async () => {
  app = await createTestApp();
  manager = (await app.createUser({ role: "ADMIN", permissions: ["knowledge.manage"] })).token;
  otherAdmin = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "reviews.moderate"] })).token;
  shopper = (await app.createUser()).token;
  guest = (await app.createUser({ authProvider: "guest" })).token;
  const v = await app.database.db.vendor.create({ data: { name: "Knowledge Vendor", handle: "knowledge-vendor" } });
  vendor = (await app.createUser({ role: "VENDOR", vendorId: v.id })).token;
}, 120_000);
afterAll(() => app?.close());

const entry = (over: Record<string, unknown> = {}) => ({
  title: "Caring for velvet",
  content: "Steam velvet instead of ironing it, and brush the pile gently in one direction. Dry clean when it needs a wash.",
  tags: ["Care", "Velvet", "dry clean"],
  source: "Mill care label",
  ...over,
});

describe("admin CRUD", () => {
  it("create (tags normalised), read publicly, edit, delete", async () => {
    const created = await app.api("POST", "/knowledge", { token: manager, body: entry() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Caring for velvet", tags: ["care", "velvet", "dry-clean"], source: "Mill care label" });
    const id = created.body.id as string;

    // Public: the assistant's citations link to it, no token needed.
    const got = await app.api("GET", `/knowledge/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.content).toContain("Steam velvet");

    // A missing source keeps the entry's; null clears it.
    const edited = await app.api("PATCH", `/knowledge/${id}`, { token: manager, body: { content: "Steam velvet; never iron it.", tags: ["care", "velvet"] } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: "Steam velvet; never iron it.", tags: ["care", "velvet"], source: "Mill care label", title: "Caring for velvet" });
    const cleared = await app.api("PATCH", `/knowledge/${id}`, { token: manager, body: { source: null } });
    expect(cleared.body.source).toBeNull();

    const deleted = await app.api("DELETE", `/knowledge/${id}`, { token: manager });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await app.api("GET", `/knowledge/${id}`)).status).toBe(404);
  });

  it("failures: invalid bodies 400, a duplicate title 409, unknown ids 404", async () => {
    const blank = await app.api("POST", "/knowledge", { token: manager, body: entry({ title: "  " }) });
    expect(blank.status).toBe(400);
    expect((await app.api("POST", "/knowledge", { token: manager, body: entry({ content: "" }) })).status).toBe(400);
    expect((await app.api("POST", "/knowledge", { token: manager, body: entry({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }) })).status).toBe(400);
    expect((await app.api("POST", "/knowledge", { token: manager, body: entry({ title: "x".repeat(161) }) })).status).toBe(400);

    const first = await app.api("POST", "/knowledge", { token: manager, body: entry({ title: "Velvet guide" }) });
    expect(first.status).toBe(201);
    const dup = await app.api("POST", "/knowledge", { token: manager, body: entry({ title: "VELVET GUIDE" }) });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe("A knowledge entry with this title already exists");
    const other = await app.api("POST", "/knowledge", { token: manager, body: entry({ title: "Velvet guide 2" }) });
    expect((await app.api("PATCH", `/knowledge/${other.body.id}`, { token: manager, body: { title: "velvet guide" } })).status).toBe(409);
    // Its own title (another case) is not a conflict.
    expect((await app.api("PATCH", `/knowledge/${first.body.id}`, { token: manager, body: { title: "Velvet Guide" } })).status).toBe(200);

    expect((await app.api("PATCH", `/knowledge/${first.body.id}`, { token: manager, body: {} })).status).toBe(400);
    expect((await app.api("PATCH", "/knowledge/no-such-entry", { token: manager, body: { title: "Anything" } })).status).toBe(404);
    const gone = await app.api("DELETE", "/knowledge/no-such-entry", { token: manager });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe("Knowledge entry not found");
    expect((await app.api("GET", "/knowledge/no-such-entry")).status).toBe(404);
    for (const id of [first.body.id, other.body.id]) await app.api("DELETE", `/knowledge/${id}`, { token: manager });
  });

  it("list: newest first, search by words, filter by tag, pages with total, tag counts", async () => {
    expect(await seedKnowledgeDemo(app.ctx.db)).toBeGreaterThan(25);
    const all = await app.api("GET", "/knowledge", { token: manager, query: { take: 5 } });
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(5);
    expect(all.body.total).toBeGreaterThan(25);
    const dates = all.body.items.map((e: { created_at: string }) => e.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(all.body.tags[0].count).toBeGreaterThanOrEqual(all.body.tags[1].count);
    expect(all.body.tags.find((t: { tag: string }) => t.tag === "care").count).toBeGreaterThanOrEqual(9);

    const next = await app.api("GET", "/knowledge", { token: manager, query: { take: 5, skip: 5 } });
    expect(next.body.items.map((e: { id: string }) => e.id)).not.toContain(all.body.items[0].id);

    const linen = await app.api("GET", "/knowledge", { token: manager, query: { q: "linen wash" } });
    expect(linen.body.items.map((e: { title: string }) => e.title)).toContain("Caring for linen");
    for (const e of linen.body.items) expect(`${e.title} ${e.content}`.toLowerCase()).toMatch(/linen/);

    const policies = await app.api("GET", "/knowledge", { token: manager, query: { tag: "Policy" } });
    expect(policies.body.total).toBe(5);
    for (const e of policies.body.items) expect(e.tags).toContain("policy");
    expect((await app.api("GET", "/knowledge", { token: manager, query: { take: 0 } })).status).toBe(400);
  });

  it("search: the entries the assistant would cite, with scores", async () => {
    const r = await app.api("POST", "/knowledge/search", { token: manager, body: { question: "How do I wash linen?" } });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ entry: { title: "Caring for linen" }, cited: true });
    expect(r.body.items[0].score).toBeGreaterThan(r.body.items[1].score);
    const ctx = await app.api("POST", "/knowledge/search", { token: manager, body: { question: "how should I wash these", context_tags: ["denim", "jeans"], limit: 1 } });
    expect(ctx.body.items.map((h: { entry: { title: string } }) => h.entry.title)).toEqual(["Caring for denim"]);
    expect((await app.api("POST", "/knowledge/search", { token: manager, body: { question: "" } })).status).toBe(400);
  });
});

describe("who may", () => {
  const writes = [
    ["GET", "/knowledge", undefined],
    ["POST", "/knowledge", entry({ title: "Forbidden entry" })],
    ["PATCH", "/knowledge/some-id", { title: "Renamed" }],
    ["DELETE", "/knowledge/some-id", undefined],
    ["POST", "/knowledge/search", { question: "how do I wash linen" }],
  ] as const;

  it.each(writes)("%s %s: anonymous 401; shopper, guest, vendor and an admin without knowledge.manage 403", async (method, path, body) => {
    expect((await app.api(method, path, { body })).status).toBe(401);
    for (const [who, token] of [
      ["shopper", shopper],
      ["guest", guest],
      ["vendor", vendor],
      ["admin without knowledge.manage", otherAdmin],
    ] as const) {
      const r = await app.api(method, path, { token, body });
      expect(r.status, `${method} ${path} as ${who}`).toBe(403);
      expect(r.body.error.code).toBe("forbidden");
    }
  });

  it("a shopper cannot create an entry, and nothing is written", async () => {
    const before = await app.database.db.knowledgeEntry.count();
    const r = await app.api("POST", "/knowledge", { token: shopper, body: entry({ title: "Shopper's entry" }) });
    expect(r.status).toBe(403);
    expect(await app.database.db.knowledgeEntry.count()).toBe(before);
  });
});

describe("the assistant cites the knowledge base", () => {
  let jeansId: string;
  beforeAll(async () => {
    await seedKnowledgeDemo(app.ctx.db);
    const v = await app.database.db.vendor.findFirstOrThrow();
    const store = await app.database.db.store.create({ data: { name: "Denim Works", handle: "denim-works", vendor_id: v.id } });
    jeansId = "gid://shopify/Product/9100";
    await app.database.db.product.create({
      data: {
        id: jeansId,
        title: "Slim Stretch Jeans",
        handle: "slim-stretch-jeans",
        vendor: "Denim Works",
        productType: "Jeans",
        tags: ["denim"],
        availableForSale: true,
        priceMin: 60,
        priceMax: 60,
        target_gender: "menswear",
        status: "active",
        publishedAt: new Date(Date.now() - 86_400_000),
        store_id: store.id,
      },
    });
  });

  const conversation = async (token: string) => (await app.api("POST", "/agent/conversations", { token, body: {} })).body.id as string;
  const send = (token: string, id: string, content: string, product_id?: string) =>
    app.api("POST", `/agent/conversations/${id}/messages`, { token, body: { content, ...(product_id ? { product_id } : {}) } });

  it('"How do I wash linen?" quotes the linen care guide and cites it', async () => {
    const { token } = await app.createUser();
    const id = await conversation(token);
    const r = await send(token, id, "How do I wash linen?");
    expect(r.status).toBe(201);
    expect(r.body.reply.intent).toBe("advice");
    expect(r.body.reply.citations[0]).toMatchObject({ title: "Caring for linen", source: "Fashion Discovery care guide" });
    expect(r.body.reply.citations[0].excerpt).toMatch(/Wash linen at 30–40 °C/);
    expect(r.body.reply.content).toContain('"Caring for linen"');
    expect(r.body.reply.content).toContain("Wash linen at 30–40 °C");
    expect(r.body.message.citations).toEqual([]);

    // The citation opens the whole entry.
    const full = await app.api("GET", `/knowledge/${r.body.reply.citations[0].id}`);
    expect(full.body.title).toBe("Caring for linen");

    // Stored with the answer: reading the conversation again shows it, even after the entry is deleted.
    const admin = (await app.createUser({ role: "ADMIN", permissions: ["knowledge.manage"] })).token;
    const copy = await app.api("POST", "/knowledge", { token: admin, body: { title: "Linen care (copy)", content: "Wash linen cool.", tags: ["care"] } });
    await app.api("DELETE", `/knowledge/${copy.body.id}`, { token: admin });
    const again = await app.api("GET", `/agent/conversations/${id}`, { token });
    expect(again.body.messages.at(-1).citations.map((c: { title: string }) => c.title)).toEqual(r.body.reply.citations.map((c: { title: string }) => c.title));
  });

  it('"Does this run small?" on a pair of jeans cites the fit guides, the jeans one among them', async () => {
    const { token } = await app.createUser();
    const id = await conversation(token);
    const r = await send(token, id, "Does this run small?", jeansId);
    expect(r.status).toBe(201);
    expect(r.body.reply.intent).toBe("size_help");
    const titles = r.body.reply.citations.map((c: { title: string }) => c.title);
    expect(titles).toContain("Jeans fit guide: waist, inseam and rise");
    expect(titles[0]).toMatch(/run small|Jeans fit guide/);
    expect(r.body.reply.content).toContain("Denim Works has not shared size advice for the Slim Stretch Jeans");
    expect(r.body.reply.content).toMatch(/From our guide "/);
  });

  it("a policy question, and questions no guide answers", async () => {
    const { token } = await app.createUser();
    const id = await conversation(token);
    const returns = await send(token, id, "What is your return policy?");
    expect(returns.body.reply.intent).toBe("advice");
    expect(returns.body.reply.citations[0].title).toBe("Returns and refunds policy");
    expect(returns.body.reply.content).toMatch(/30 days/);

    const nothing = await send(token, id, "what's the weather like");
    expect(nothing.body.reply).toMatchObject({ intent: "unknown", citations: [] });
    const products = await send(token, id, "black jeans under 80");
    expect(products.body.reply).toMatchObject({ intent: "find_products", citations: [] });
  });
});
