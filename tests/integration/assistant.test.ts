/**
 * The shopping assistant on the demo catalogue (local language model): conversations (create,
 * list active, recent-or-create, read, messages, close), a message turn for every intent with
 * products from the discovery engine, refinements, the NLU query, ownership (another shopper's
 * conversation is 404 and stays unchanged), and the guest merge moving conversations.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colourFamily } from "../../app/lib/search-colours";
import { typeFamily } from "../../app/services/similar-products.server";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;
let shopper: { token: string; id: string };

beforeAll(async () => {
  app = await createDemoTestApp();
  const login = await app.api("POST", "/auth/login", { body: { email: "shopper@demo.local", password: "demo-password" } });
  expect(login.status).toBe(200);
  shopper = { token: login.body.token, id: login.body.user.id };
}, 180_000);
afterAll(() => app?.close());

const price = (card: { priceRange: { minVariantPrice: { amount: string } } }) => Number(card.priceRange.minVariantPrice.amount);

async function colourFamiliesOf(productId: string): Promise<string[]> {
  const options = await app.database.db.productOption.findMany({ where: { product_id: productId } });
  return options.filter((o) => /colou?r/i.test(o.name)).flatMap((o) => o.values.map((v) => colourFamily(v) ?? v.toLowerCase()));
}

async function newConversation(token: string) {
  const r = await app.api("POST", "/agent/conversations", { token, body: {} });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

const send = (token: string, id: string, content: string, product_id?: string) =>
  app.api("POST", `/agent/conversations/${id}/messages`, { token, body: { content, ...(product_id ? { product_id } : {}) } });

describe("conversations", () => {
  it("create, read, list active, close; anonymous callers are refused", async () => {
    const { token } = await app.createUser({ firstName: "Ada" });
    const created = await app.api("POST", "/agent/conversations", { token, body: { title: "Summer wardrobe" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Summer wardrobe", status: "active", messages: [], messagesCursor: null, messageCount: 0, preview: null });
    const untitled = await app.api("POST", "/agent/conversations", { token });
    expect(untitled.status).toBe(201);
    expect(untitled.body.title).toBeNull();

    const got = await app.api("GET", `/agent/conversations/${created.body.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(created.body.id);

    const list = await app.api("GET", "/agent/conversations/active", { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { id: string }) => c.id).sort()).toEqual([created.body.id, untitled.body.id].sort());

    const closed = await app.api("POST", `/agent/conversations/${untitled.body.id}/close`, { token });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe("closed");
    // Idempotent, and a closed conversation is readable but takes no messages.
    expect((await app.api("POST", `/agent/conversations/${untitled.body.id}/close`, { token })).body.status).toBe("closed");
    expect((await app.api("GET", `/agent/conversations/${untitled.body.id}`, { token })).status).toBe(200);
    const refused = await send(token, untitled.body.id, "black jeans");
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This conversation is closed: start a new one");
    expect((await app.api("GET", "/agent/conversations/active", { token })).body.items.map((c: { id: string }) => c.id)).toEqual([created.body.id]);

    expect((await app.api("POST", "/agent/conversations")).status).toBe(401);
    expect((await app.api("GET", "/agent/conversations/active")).status).toBe(401);
    expect((await app.api("GET", `/agent/conversations/${created.body.id}`)).status).toBe(401);
    expect((await app.api("GET", "/agent/conversations/no-such-id", { token })).status).toBe(404);
    expect((await app.api("GET", "/agent/conversations/active", { token, query: { cursor: "%%%" } })).status).toBe(400);
  });

  it("the active list pages by cursor, latest activity first", async () => {
    const { token } = await app.createUser();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await newConversation(token));
    await send(token, ids[0], "hi");
    const first = await app.api("GET", "/agent/conversations/active", { token, query: { limit: 2 } });
    expect(first.body.items.map((c: { id: string }) => c.id)[0]).toBe(ids[0]);
    expect(first.body.items[0]).toMatchObject({ messageCount: 2, title: "hi" });
    expect(first.body.items[0].preview).toMatch(/^Hi! I'm your shopping assistant/);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await app.api("GET", "/agent/conversations/active", { token, query: { limit: 2, cursor: first.body.nextCursor } });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((c: { id: string }) => c.id);
    expect(all.sort()).toEqual([...ids].sort());
  });

  it("recent-or-create continues the latest active conversation, else starts one", async () => {
    const { token, id: userId } = await app.createUser({ authProvider: "guest" });
    const a = await app.api("POST", "/agent/conversations/recent-or-create", { token });
    expect(a.status).toBe(200);
    expect(a.body.created).toBe(true);
    await send(token, a.body.id, "black jeans under 80");
    const b = await app.api("POST", "/agent/conversations/recent-or-create", { token });
    expect(b.body).toMatchObject({ id: a.body.id, created: false, messageCount: 2 });
    expect(b.body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(b.body.messages[1].products.length).toBeGreaterThan(0);

    // Closed, or idle for more than 7 days: a new one.
    await app.api("POST", `/agent/conversations/${a.body.id}/close`, { token });
    const c = await app.api("POST", "/agent/conversations/recent-or-create", { token });
    expect(c.body.created).toBe(true);
    expect(c.body.id).not.toBe(a.body.id);
    await app.database.db.$executeRaw`UPDATE conversations SET updated_at = now() - interval '8 days' WHERE id = ${c.body.id}`;
    const d = await app.api("POST", "/agent/conversations/recent-or-create", { token });
    expect(d.body.created).toBe(true);
    expect(await app.database.db.conversation.count({ where: { user_id: userId } })).toBe(3);
  });

  it("messages page backwards from the newest", async () => {
    const { token } = await app.createUser();
    const id = await newConversation(token);
    for (const m of ["hi", "help", "black jeans"]) expect((await send(token, id, m)).status).toBe(201);
    const page1 = await app.api("GET", `/agent/conversations/${id}/messages`, { token, query: { limit: 4 } });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((m: { content: string; role: string }) => (m.role === "user" ? m.content : "·"))).toEqual(["help", "·", "black jeans", "·"]);
    const page2 = await app.api("GET", `/agent/conversations/${id}/messages`, { token, query: { limit: 4, cursor: page1.body.nextCursor } });
    expect(page2.body.items.map((m: { content: string; role: string }) => (m.role === "user" ? m.content : "·"))).toEqual(["hi", "·"]);
    expect(page2.body.nextCursor).toBeNull();
    const full = await app.api("GET", `/agent/conversations/${id}`, { token });
    expect(full.body.messages).toHaveLength(6);
    expect(full.body.messagesCursor).toBeNull();
  });
});

describe("a message turn", () => {
  it("find products: black jeans under 80", async () => {
    const id = await newConversation(shopper.token);
    const r = await send(shopper.token, id, "black jeans under 80");
    expect(r.status).toBe(201);
    expect(r.body.message).toMatchObject({ role: "user", content: "black jeans under 80", product_id: null, intent: null, products: [] });
    const reply = r.body.reply;
    expect(reply.role).toBe("assistant");
    expect(reply.intent).toBe("find_products");
    expect(reply.products.length).toBeGreaterThan(0);
    expect(reply.products.length).toBeLessThanOrEqual(6);
    for (const p of reply.products) {
      expect(p.productType).toBe("Jeans");
      expect(price(p)).toBeLessThanOrEqual(80);
      expect(await colourFamiliesOf(p.id)).toContain("black");
    }
    expect(reply.content).toMatch(/black jeans under \$80/);
    expect(reply.content).toContain(reply.products[0].title);
    expect(reply.links).toEqual([{ label: "See all results", href: "/?search=black%20jeans%20under%2080" }]);
    expect(reply.suggestions).toContain("What goes with it?");
    expect(r.body.conversation).toMatchObject({ id, title: "black jeans under 80", messageCount: 2 });
    expect(new Date(reply.created_at).getTime()).toBeGreaterThan(new Date(r.body.message.created_at).getTime());
  });

  it("a refinement narrows the previous search; 'it' is the first product shown", async () => {
    const id = await newConversation(shopper.token);
    const first = await send(shopper.token, id, "jeans for men");
    expect(first.body.reply.intent).toBe("find_products");
    const firstIds = first.body.reply.products.map((p: { id: string }) => p.id);
    // A bound a few of the men's jeans are under.
    const prices = (await app.database.db.product.findMany({ where: { productType: "Jeans", target_gender: { in: ["menswear", "both"] }, status: "active" }, select: { priceMin: true } }))
      .map((p) => Number(p.priceMin))
      .sort((a, b) => a - b);
    const bound = Math.ceil(prices[Math.min(2, prices.length - 1)]);
    const cheaper = await send(shopper.token, id, `under $${bound}`);
    expect(cheaper.body.reply.intent).toBe("find_products");
    expect(cheaper.body.reply.products.length).toBeGreaterThan(0);
    for (const p of cheaper.body.reply.products) {
      expect(p.productType).toBe("Jeans");
      expect(["menswear", "both"]).toContain(p.target_gender);
      expect(price(p)).toBeLessThanOrEqual(bound);
    }
    expect(cheaper.body.reply.content).toContain(`jeans for men under $${bound}`);
    const anchor = cheaper.body.reply.products[0];
    const look = await send(shopper.token, id, "What goes with it?");
    expect(look.body.reply.intent).toBe("complete_the_look");
    expect(look.body.reply.content).toContain(anchor.title);
    expect(look.body.reply.products.length).toBeGreaterThan(0);
    // Complementary garments, not more jeans.
    expect(look.body.reply.products.filter((p: { productType: string }) => typeFamily(p.productType) !== "jeans").length).toBeGreaterThan(look.body.reply.products.length / 2);
    expect(look.body.reply.links[0].href).toMatch(/^\/products\/\d+\//);
    expect(firstIds.length).toBeGreaterThan(0);
  });

  it("similar to the product sent with the message (numeric id accepted)", async () => {
    const shirt = await app.database.db.product.findFirstOrThrow({ where: { productType: "Shirts", status: "active" }, orderBy: { id: "asc" } });
    const id = await newConversation(shopper.token);
    const numeric = shirt.id.split("/").pop()!;
    const r = await send(shopper.token, id, "Anything similar?", numeric);
    expect(r.status).toBe(201);
    expect(r.body.message.product_id).toBe(shirt.id);
    expect(r.body.reply.intent).toBe("similar_products");
    expect(r.body.reply.content).toContain(`similar to the ${shirt.title}`);
    expect(r.body.reply.products.length).toBeGreaterThan(0);
    expect(r.body.reply.products.map((p: { id: string }) => p.id)).not.toContain(shirt.id);
    // The conversation is now about the shirt: "what size" needs no product id.
    const size = await send(shopper.token, id, "What size should I get?");
    expect(size.body.reply.intent).toBe("size_help");
    const store = await app.database.db.store.findUniqueOrThrow({ where: { id: shirt.store_id! } });
    expect(store.size_recommendation).toBeTruthy();
    expect(size.body.reply.content).toContain(store.size_recommendation!);
    expect(size.body.reply.content).toContain(store.name);
  });

  it("similar to a described product finds the product first", async () => {
    const id = await newConversation(shopper.token);
    const r = await send(shopper.token, id, "something similar to a navy blazer");
    expect(r.body.reply.intent).toBe("similar_products");
    expect(r.body.reply.content).toMatch(/I took the .+ as the piece you meant/);
    expect(r.body.reply.products.length).toBeGreaterThan(0);
  });

  it("order status: the demo shopper's latest order; a guest is asked to sign in", async () => {
    const latest = await app.database.db.order.findFirstOrThrow({ where: { user_id: shopper.id }, orderBy: [{ created_at: "desc" }, { id: "asc" }] });
    const id = await newConversation(shopper.token);
    const r = await send(shopper.token, id, "Where is my order?");
    expect(r.body.reply.intent).toBe("order_status");
    expect(r.body.reply.content).toContain(`Your latest order ${latest.name}`);
    expect(r.body.reply.links).toEqual([{ label: "My orders", href: "/account/orders" }]);

    const guest = await app.createUser({ authProvider: "guest" });
    const gid = await newConversation(guest.token);
    expect((await send(guest.token, gid, "where is my order")).body.reply.content).toMatch(/^Sign in to see your orders/);
    const fresh = await app.createUser();
    const fid = await newConversation(fresh.token);
    expect((await send(fresh.token, fid, "where is my order")).body.reply.content).toMatch(/^I can't find any orders/);
  });

  it("greeting, help and unknown answer without products", async () => {
    const { token } = await app.createUser({ firstName: "Grace" });
    const id = await newConversation(token);
    const hi = await send(token, id, "Hello!");
    expect(hi.body.reply).toMatchObject({ intent: "greeting", products: [] });
    expect(hi.body.reply.content).toMatch(/^Hi Grace!/);
    expect(hi.body.reply.suggestions.length).toBeGreaterThan(0);
    expect((await send(token, id, "what can you do?")).body.reply.intent).toBe("help");
    expect((await send(token, id, "what's the weather like")).body.reply).toMatchObject({ intent: "unknown", products: [] });
  });

  it("nothing matches: a clear answer, or the closest products of the garment asked, marked as such", async () => {
    const id = await newConversation(shopper.token);
    const none = await send(shopper.token, id, "jeans under 5");
    expect(none.body.reply.intent).toBe("find_products");
    expect(none.body.reply.products).toEqual([]);
    expect(none.body.reply.content).toMatch(/^I couldn't find jeans under \$5 right now/);

    // Size 3XL jeans do not exist: jeans of other sizes, said to be the closest.
    const relaxed = await send(shopper.token, id, "black jeans in size XXXL");
    expect(relaxed.body.reply.products.length).toBeGreaterThan(0);
    for (const p of relaxed.body.reply.products) expect(p.productType).toBe("Jeans");
    expect(relaxed.body.reply.content).toMatch(/^Nothing matched black jeans in size XXXL exactly/);
  });

  it("refuses bad input", async () => {
    const id = await newConversation(shopper.token);
    const empty = await send(shopper.token, id, "   ");
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("content: must not be empty");
    expect((await send(shopper.token, id, "x".repeat(1001))).status).toBe(400);
    const unknown = await send(shopper.token, id, "similar?", "gid://shopify/Product/999999999");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product not found");
    expect((await app.api("GET", `/agent/conversations/${id}`, { token: shopper.token })).body.messageCount).toBe(0);
  });

  it("products hidden later drop out of stored answers", async () => {
    const { token } = await app.createUser();
    const id = await newConversation(token);
    const r = await send(token, id, "linen shirts");
    const [first, ...rest] = r.body.reply.products as { id: string }[];
    expect(first).toBeDefined();
    await app.database.db.product.update({ where: { id: first.id }, data: { status: "archived" } });
    const again = await app.api("GET", `/agent/conversations/${id}`, { token });
    expect(again.body.messages[1].products.map((p: { id: string }) => p.id)).toEqual(rest.map((p) => p.id));
    await app.database.db.product.update({ where: { id: first.id }, data: { status: "active" } });
  });
});

describe("ownership", () => {
  it("another shopper's conversation is 404 for every call and nothing changes", async () => {
    const owner = await app.createUser();
    const other = await app.createUser();
    const id = await newConversation(owner.token);
    await send(owner.token, id, "black jeans");
    const before = await app.database.db.message.count({ where: { conversation_id: id } });

    for (const [method, path, body] of [
      ["GET", `/agent/conversations/${id}`, undefined],
      ["GET", `/agent/conversations/${id}/messages`, undefined],
      ["POST", `/agent/conversations/${id}/messages`, { content: "hi" }],
      ["POST", `/agent/conversations/${id}/close`, undefined],
    ] as const) {
      const r = await app.api(method, path, { token: other.token, body });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.message).toBe("Conversation not found");
    }
    expect(await app.database.db.message.count({ where: { conversation_id: id } })).toBe(before);
    expect((await app.database.db.conversation.findUniqueOrThrow({ where: { id } })).status).toBe("active");
    expect((await app.api("GET", "/agent/conversations/active", { token: other.token })).body.items).toEqual([]);
    const recent = await app.api("POST", "/agent/conversations/recent-or-create", { token: other.token });
    expect(recent.body.id).not.toBe(id);
  });
});

describe("NLU query", () => {
  it("answers intent, slots and the search phrase", async () => {
    const { token } = await app.createUser({ authProvider: "guest" });
    const r = await app.api("POST", "/agent/nlu-query", { token, body: { query: "black jeans under 80" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      intent: "find_products",
      provider: "local",
      query: "black jeans under 80",
      slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80, priceMin: null, target_gender: null, product_id: null },
    });
    const store = await app.database.db.store.findFirstOrThrow({ where: { name: "Tidewater Denim" } });
    const s = await app.api("POST", "/agent/nlu-query", { token, body: { query: "Tidewater Denim jeans for women size 28" } });
    expect(s.body.slots).toMatchObject({ storeIds: [store.id], target_gender: "womenswear", sizes: ["28"] });

    const product = await app.database.db.product.findFirstOrThrow({ where: { status: "active" }, orderBy: { id: "asc" } });
    const p = await app.api("POST", "/agent/nlu-query", { token, body: { query: "what goes with this?", product_id: product.id } });
    expect(p.body).toMatchObject({ intent: "complete_the_look", slots: { product_id: product.id } });
  });

  it("refuses anonymous callers, empty queries and unknown products", async () => {
    const { token } = await app.createUser();
    expect((await app.api("POST", "/agent/nlu-query", { body: { query: "jeans" } })).status).toBe(401);
    const empty = await app.api("POST", "/agent/nlu-query", { token, body: { query: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("query: must not be empty");
    expect((await app.api("POST", "/agent/nlu-query", { token, body: {} })).body.error.message).toBe("query is required");
    expect((await app.api("POST", "/agent/nlu-query", { token, body: { query: "similar", product_id: "424242424242" } })).status).toBe(404);
  });
});

describe("guest merge", () => {
  it("moves the guest's conversations with their messages into the account", async () => {
    const guest = await app.createUser({ authProvider: "guest" });
    const id = await newConversation(guest.token);
    await send(guest.token, id, "black jeans under 80");
    const account = await app.createUser({ password: "a-good-password" });
    const merged = await app.api("POST", "/users/merge-guest-into-me", { token: account.token, body: { guestToken: guest.token } });
    expect(merged.status).toBe(200);
    expect(merged.body.merged.conversations).toBe(1);
    const got = await app.api("GET", `/agent/conversations/${id}`, { token: account.token });
    expect(got.status).toBe(200);
    expect(got.body.messages).toHaveLength(2);
    expect(got.body.messages[1].products.length).toBeGreaterThan(0);
    expect((await app.api("POST", "/agent/conversations/recent-or-create", { token: account.token })).body).toMatchObject({ id, created: false });
    expect(await app.database.db.conversation.count({ where: { user_id: guest.id } })).toBe(0);
  });
});
