/**
 * The local Taobao source (the embedded default): the demo catalogue shipped in
 * prisma/demo/taobao/items.json, answered in the `item_get` wire shape and validated like the
 * HTTP adapter's answers; images are rendered on this machine (prisma/demo/taobao/images.server.ts)
 * and kept in a small in-memory cache. The broken items of the catalogue fail the way real sources
 * do: HTTP 404 images, an HTML page where an image should be, a damaged JPEG, an image that fails
 * twice with 503 before loading.
 */
import demoCatalogue from "../../../prisma/demo/taobao/items.json";
import type { TaobaoDemoCatalogue, TaobaoDemoImage } from "../../../prisma/demo/taobao/catalogue";
import { renderTaobaoDemoImage } from "../../../prisma/demo/taobao/images.server";
import { TaobaoSourceError, parseShopPage, parseTaobaoItem, type TaobaoImage, type TaobaoSourcePort } from "./port";

export const DEMO_TAOBAO_CATALOGUE = demoCatalogue as unknown as TaobaoDemoCatalogue;

const CACHE_MAX = 300;

const normaliseUrl = (u: string) => (u.startsWith("//") ? `https:${u}` : u.trim());

export interface LocalTaobaoOptions {
  /** Another catalogue (the benchmark's bigger one); default: the shipped demo catalogue. */
  catalogue?: TaobaoDemoCatalogue;
}

export function createLocalTaobao(opts: LocalTaobaoOptions = {}): TaobaoSourcePort & { catalogue: TaobaoDemoCatalogue } {
  const catalogue = opts.catalogue ?? DEMO_TAOBAO_CATALOGUE;
  const items = new Map(catalogue.items.map((it) => [String(it.num_iid), it]));
  const images = new Map(Object.entries(catalogue.images).map(([u, spec]) => [normaliseUrl(u), spec]));
  const rendered = new Map<string, Promise<Buffer>>();
  const flakyCalls = new Map<string, number>();

  // Keyed by what is drawn: the same render under two URLs is drawn once.
  const render = (spec: Extract<TaobaoDemoImage, { kind: "garment" | "chart" }>) => {
    const key = JSON.stringify(spec);
    let p = rendered.get(key);
    if (!p) {
      p = renderTaobaoDemoImage(spec);
      p.catch(() => rendered.delete(key));
      rendered.set(key, p);
      if (rendered.size > CACHE_MAX) rendered.delete(rendered.keys().next().value!);
    }
    return p;
  };

  return {
    kind: "local",
    catalogue,

    async getItem(id) {
      const raw = items.get(id.trim());
      if (!raw) throw new TaobaoSourceError("not_found", "The Taobao item was not found", { status: 404, detail: `item ${id}` });
      // A copy: the pipeline never sees (or changes) the catalogue's own objects.
      return parseTaobaoItem(structuredClone(raw), id);
    },

    async listShopItems(shopId, page) {
      const shop = catalogue.shops.find((s) => s.shop_id === shopId.trim());
      if (!shop) throw new TaobaoSourceError("not_found", `Taobao shop ${shopId} was not found`, { status: 404 });
      const all = catalogue.items.filter((it) => it.shop_id === shop.shop_id && !(String(it.num_iid) in catalogue.broken));
      const pageCount = Math.max(1, Math.ceil(all.length / catalogue.pageSize));
      const slice = all.slice((page - 1) * catalogue.pageSize, page * catalogue.pageSize);
      return parseShopPage({
        shop_id: shop.shop_id,
        shop_title: shop.shop_title,
        page,
        page_count: pageCount,
        total_results: all.length,
        items: slice.map((it) => ({ num_iid: it.num_iid, title: it.title ?? "" })),
      });
    },

    async fetchImage(rawUrl): Promise<TaobaoImage> {
      const url = normaliseUrl(rawUrl);
      const spec = images.get(url);
      if (!spec || spec.kind === "missing") throw new TaobaoSourceError("image_failed", "An image of the item could not be downloaded (HTTP 404)", { status: 404, retryable: false, detail: url });
      switch (spec.kind) {
        case "html":
          return { bytes: new TextEncoder().encode("<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"), contentType: "text/html; charset=utf-8" };
        case "corrupt": {
          const bytes = new Uint8Array(4096);
          bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
          for (let i = 6; i < bytes.length; i++) bytes[i] = (i * 131 + 7) % 251;
          return { bytes, contentType: "image/jpeg" };
        }
        case "flaky": {
          const n = (flakyCalls.get(url) ?? 0) + 1;
          flakyCalls.set(url, n);
          if (n <= spec.failures) throw new TaobaoSourceError("image_failed", "An image of the item could not be downloaded (HTTP 503)", { status: 503, retryable: true, detail: url });
          return { bytes: new Uint8Array(await render(spec.image)), contentType: "image/jpeg" };
        }
        default:
          return { bytes: new Uint8Array(await render(spec)), contentType: "image/jpeg" };
      }
    },
  };
}
