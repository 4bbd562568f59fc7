/**
 * A local HTTP server speaking the Taobao item API the HTTP adapter expects (README, "Taobao
 * import"): `GET /item_get?num_iid=` → `{item}`, `GET /item_search_shop?shop_id=&page=` → a page of a
 * shop, both requiring `Authorization: Bearer <key>` (401 otherwise), from the demo catalogue;
 * images under `/img/<original URL>` rendered by the local source, so items come back with image
 * URLs on this server. Tests script failures: `failNext(status, n, retryAfter?)`, `delayNext(ms)`,
 * `rawNext(body)`; every request is recorded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalTaobao } from "../../app/providers/taobao/local.server";

export const TAOBAO_TEST_KEY = "tb-test-key-0123456789";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  accept: string | undefined;
  status: number;
}

export interface FakeTaobao {
  baseUrl: string;
  requests: RecordedRequest[];
  failNext(status: number, count?: number, retryAfterSeconds?: number): void;
  delayNext(ms: number, count?: number): void;
  rawNext(body: string, status?: number): void;
  close(): Promise<void>;
}

type Scripted = { kind: "fail"; status: number; retryAfter?: number } | { kind: "delay"; ms: number } | { kind: "raw"; body: string; status: number };

export async function startFakeTaobao(opts: { apiKey?: string } = {}): Promise<FakeTaobao> {
  const apiKey = opts.apiKey ?? TAOBAO_TEST_KEY;
  const local = createLocalTaobao();
  const requests: RecordedRequest[] = [];
  const script: Scripted[] = [];
  let base = "";

  const rewrite = (u: string) => `${base}/img/${encodeURIComponent(u.startsWith("//") ? `https:${u}` : u)}`;
  const withLocalImages = (item: Record<string, any>) => {
    const it = structuredClone(item);
    if (typeof it.pic_url === "string") it.pic_url = rewrite(it.pic_url);
    it.item_imgs = (it.item_imgs ?? []).map((i: { url: string }) => ({ url: rewrite(i.url) }));
    it.desc_img = (it.desc_img ?? []).map(rewrite);
    it.desc = String(it.desc ?? "").replace(/src="([^"]+)"/g, (_m: string, u: string) => `src="${rewrite(u)}"`);
    if (it.prop_imgs?.prop_img) it.prop_imgs.prop_img = it.prop_imgs.prop_img.map((p: { properties: string; url: string }) => ({ ...p, url: rewrite(p.url) }));
    return it;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const rec: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization, accept: req.headers.accept, status: 200 };
    requests.push(rec);
    const send = (status: number, body: string | Uint8Array, type = "application/json", headers: Record<string, string> = {}) => {
      rec.status = status;
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(body);
    };
    const isImage = url.pathname.startsWith("/img/");
    const next = script.shift();
    if (next?.kind === "delay") await new Promise((r) => setTimeout(r, next.ms));
    else if (next?.kind === "fail") return send(next.status, JSON.stringify({ error: `scripted ${next.status}` }), "application/json", next.retryAfter !== undefined ? { "retry-after": String(next.retryAfter) } : {});
    else if (next?.kind === "raw") return send(next.status, next.body);
    if (isImage) {
      try {
        const img = await local.fetchImage(decodeURIComponent(url.pathname.slice(5)));
        return send(200, img.bytes, img.contentType);
      } catch (e) {
        return send((e as { opts?: { status?: number } }).opts?.status ?? 404, "not found", "text/plain");
      }
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, JSON.stringify({ error: "invalid key", error_code: "4001" }));
    if (url.pathname === "/item_get") {
      const id = url.searchParams.get("num_iid") ?? "";
      const item = local.catalogue.items.find((i) => String(i.num_iid) === id);
      if (!item) return send(404, JSON.stringify({ error: "item not found", error_code: "item-not-found" }));
      return send(200, JSON.stringify({ item: withLocalImages(item), error: "", error_code: "0000" }));
    }
    if (url.pathname === "/item_search_shop") {
      try {
        const page = await local.listShopItems(url.searchParams.get("shop_id") ?? "", Number(url.searchParams.get("page") ?? 1));
        return send(200, JSON.stringify({ shop_id: page.shopId, shop_title: page.shopName, page: page.page, page_count: page.pageCount, total_results: page.total, items: page.itemIds.map((num_iid) => ({ num_iid, title: "" })) }));
      } catch {
        return send(404, JSON.stringify({ error: "shop not found" }));
      }
    }
    send(404, JSON.stringify({ error: "no such endpoint" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    requests,
    failNext(status, count = 1, retryAfter) {
      for (let i = 0; i < count; i++) script.push({ kind: "fail", status, retryAfter });
    },
    delayNext(ms, count = 1) {
      for (let i = 0; i < count; i++) script.push({ kind: "delay", ms });
    },
    rawNext(body, status = 200) {
      script.push({ kind: "raw", body, status });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
