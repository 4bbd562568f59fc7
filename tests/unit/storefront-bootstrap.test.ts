/**
 * The storefront's replaying fetch (storefront/src/lib/bootstrap.ts): a page's embedded answers
 * serve the same call once, soon after the page loaded; anything else goes to the network.
 */
import { describe, expect, it } from "vitest";
import { BOOTSTRAP_TTL_MS, bootstrapKey, isReplayable, readBootstrap, replayingFetch, type BootstrapResponses } from "../../storefront/src/lib/bootstrap";

function network() {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls.push(`${init?.method ?? "GET"} ${String(input)}`);
    return new Response(JSON.stringify({ from: "network" }), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { calls, fetch };
}

const answers: BootstrapResponses = {
  "GET /api/users/me": { status: 200, body: { id: "u1" } },
  'POST /api/search {"term":"jeans"}': { status: 200, body: { results: [] } },
  'POST /api/users/view-product {"id":"p"}': { status: 200, body: { ok: true } },
};

describe("bootstrapKey", () => {
  it("drops the origin and keeps the query; a body only for calls that are not GET", () => {
    expect(bootstrapKey("get", "https://shop.test/api/cart?x=1")).toBe("GET /api/cart?x=1");
    expect(bootstrapKey("GET", "/api/cart", "ignored")).toBe("GET /api/cart");
    expect(bootstrapKey("POST", "/api/search", '{"term":"a"}')).toBe('POST /api/search {"term":"a"}');
  });

  it("only reads are replayable: GETs and the search", () => {
    expect(isReplayable("GET", "/api/cart")).toBe(true);
    expect(isReplayable("POST", "https://x.test/api/search?page=2")).toBe(true);
    expect(isReplayable("POST", "/api/users/guest")).toBe(false);
    expect(isReplayable("DELETE", "/api/cart")).toBe(false);
  });
});

describe("replayingFetch", () => {
  it("answers a call the page carries once, then asks the network", async () => {
    const net = network();
    const f = replayingFetch(answers, net.fetch);
    expect(await (await f("/api/users/me", { method: "GET" })).json()).toEqual({ id: "u1" });
    expect(net.calls).toEqual([]);
    expect(await (await f("/api/users/me", { method: "GET" })).json()).toEqual({ from: "network" });
    expect(net.calls).toEqual(["GET /api/users/me"]);
  });

  it("answers a search only with the same body", async () => {
    const net = network();
    const f = replayingFetch(answers, net.fetch);
    await f("/api/search", { method: "POST", body: '{"term":"shirts"}' });
    expect(net.calls).toEqual(["POST /api/search"]);
    expect(await (await f("/api/search", { method: "POST", body: '{"term":"jeans"}' })).json()).toEqual({ results: [] });
    expect(net.calls).toHaveLength(1);
  });

  it("never answers a write from the page, even when it is there", async () => {
    const net = network();
    const f = replayingFetch(answers, net.fetch);
    await f("/api/users/view-product", { method: "POST", body: '{"id":"p"}' });
    expect(net.calls).toEqual(["POST /api/users/view-product"]);
  });

  it("answers go stale: after the time limit the network is asked", async () => {
    const net = network();
    let now = 1_000;
    const f = replayingFetch(answers, net.fetch, { now: () => now });
    now += BOOTSTRAP_TTL_MS + 1;
    expect(await (await f("/api/users/me")).json()).toEqual({ from: "network" });
  });

  it("keeps the recorded status", async () => {
    const f = replayingFetch({ "GET /api/cart": { status: 201, body: { lines: [] } } }, network().fetch);
    const res = await f("/api/cart");
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});

describe("readBootstrap", () => {
  const doc = (text: string | null) => ({ getElementById: () => (text === null ? null : ({ textContent: text } as HTMLElement)) });
  it("reads the page's answers and ignores a missing or broken element", () => {
    expect(readBootstrap(doc('{"GET /api/cart":{"status":200,"body":{}}}'))).toEqual({ "GET /api/cart": { status: 200, body: {} } });
    expect(readBootstrap(doc(null))).toEqual({});
    expect(readBootstrap(doc("{not json"))).toEqual({});
    expect(readBootstrap(null)).toEqual({});
  });
});
