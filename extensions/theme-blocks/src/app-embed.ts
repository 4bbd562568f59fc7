/**
 * The app embed (blocks/app-embed.liquid, target body; assets/fd-app-embed.js), on every page of
 * the store once the merchant turns it on:
 *
 * 1. Session: a logged-in customer is known to the app through the App Proxy; a guest token left
 *    from before they logged in is merged into them (`POST /users/merge-guest-into-me`) and
 *    dropped. Anyone else gets a guest (`POST /users/guest`) unless one exists (lib/session.ts).
 * 2. On product pages: records the view — the recently viewed list in local storage, in the
 *    storefront's own format (storefront/src/lib/recently-viewed-format.ts), and the server's
 *    view event (`POST /users/view-product`, which feeds "customers also viewed" and for-you).
 *
 * The element carries the outcome in data-* attributes (data-state, data-session, data-viewed)
 * and a `fashion:session` event is dispatched on the document for other scripts.
 */
import { productsGetById, recommendationsViewProduct } from "virtual:fd-api-routes";
import type { ProductCard } from "~/contract/products";
import { recordRecentlyViewedWith, type CardParser } from "../../../storefront/src/lib/recently-viewed-format";
import { blockClient } from "./lib/api";
import { boolSetting, readCommonSettings } from "./lib/block-settings";
import { mountAll } from "./lib/dom";
import { getSession, withSession, type BlockSession } from "./lib/session";

const ROOT_SELECTOR = ".fd-app-embed";
const mounted = new WeakSet<HTMLElement>();

/**
 * The embed keeps the entries it finds as they are (any object with an id) and adds the new
 * card; the storefront validates every entry with the contract's schema when it reads the list.
 */
export const keepStoredCard: CardParser = (item) =>
  item && typeof item === "object" && typeof (item as { id?: unknown }).id === "string" ? (item as ProductCard) : null;

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

async function startSession(session: BlockSession, createGuest: boolean): Promise<"customer" | "guest" | "none"> {
  if (session.customer) {
    await session.mergeGuest();
    return "customer";
  }
  if (createGuest) await session.ensure();
  return session.token() ? "guest" : "none";
}

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const data = { ...root.dataset };
  const settings = readCommonSettings(data, window.location.origin);
  const createGuest = boolSetting(data.createGuest, true);
  const recordViews = boolSetting(data.recordViews, true);
  const session = getSession({ baseUrl: settings.baseUrl, customer: settings.customer });
  const api = blockClient({ productsGetById, recommendationsViewProduct }, settings, { session });
  root.dataset.state = "loading";

  const sessionReady = startSession(session, createGuest).catch((error) => {
    console.warn("[fashion-blocks] the session could not start", error);
    return "none" as const;
  });

  const work: Promise<unknown>[] = [
    sessionReady.then((kind) => {
      root.dataset.session = kind;
      document.dispatchEvent(new CustomEvent("fashion:session", { detail: { kind, userId: session.userId() } }));
    }),
  ];

  const productId = settings.productId;
  if (recordViews && productId) {
    // The card for the recently viewed list (public: no session needed).
    work.push(
      api
        .productsGetById({ params: { id: productId } })
        .then((product) => {
          recordRecentlyViewedWith(localStorageOrNull(), product, keepStoredCard);
          root.dataset.viewed = "local";
        })
        .catch((error) => console.warn("[fashion-blocks] the product of this page is not in the app's catalogue", error)),
    );
    // The server's view event, once there is a caller.
    work.push(
      sessionReady.then(async (kind) => {
        if (kind === "none") return;
        try {
          const userId = session.userId();
          await withSession(session, () => api.recommendationsViewProduct({ body: { product_id: productId, ...(userId && !session.customer ? { session_id: userId } : {}) } }));
          root.dataset.viewRecorded = "true";
        } catch (error) {
          console.warn("[fashion-blocks] the view could not be recorded", error);
        }
      }),
    );
  }

  void Promise.all(work).then(() => {
    root.dataset.state = "ready";
  });
}

mountAll(ROOT_SELECTOR, mount);
