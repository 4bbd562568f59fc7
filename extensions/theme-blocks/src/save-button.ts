/**
 * Save button block (blocks/save-button.liquid, assets/fd-save-button.js): saves the page's
 * product to the shopper's saved products (`POST /users/saved-products/toggle` with the wanted
 * state, so a repeated click cannot flip it back) — the same list the storefront's Saved page
 * shows. Optimistic: the button changes at once and goes back, with a message, when the call fails.
 *
 * The first save of a visitor who is not logged in starts a guest session (lib/session.ts); the
 * initial state is read with `GET /users/saved-products/check` only when a session exists (no
 * guest is created just to show an empty heart). Every save button of the page for the same
 * product follows the change (a `fashion:saved` event on the document), and the state is read
 * again when the app embed reports a new session (`fashion:session`, e.g. after it merged a guest
 * into the customer who just logged in).
 */
import { savedProductsCheck, savedProductsToggle } from "virtual:fd-api-routes";
import { blockClient } from "./lib/api";
import { readCommonSettings } from "./lib/block-settings";
import { interpolate, mountAll, textOf } from "./lib/dom";
import { getSession, withSession } from "./lib/session";

const ROOT_SELECTOR = ".fd-save-button";
const SAVED_EVENT = "fashion:saved";
const mounted = new WeakSet<HTMLElement>();

interface SavedDetail {
  productId: string;
  saved: boolean;
}

/** Checks for every save button of the page, batched into one request per tick. */
let pendingCheck: { ids: Set<string>; promise: Promise<Set<string>> } | null = null;

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const settings = readCommonSettings({ ...root.dataset }, window.location.origin);
  const productId = settings.productId;
  const button = root.querySelector<HTMLButtonElement>("button.fd-save-button__button");
  const label = root.querySelector<HTMLElement>(".fd-save-button__label");
  const error = root.querySelector<HTMLElement>(".fd-save-button__error");
  if (!productId || !button || !label) return;
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const title = (root.dataset.productTitle ?? "").trim();
  const session = getSession({ baseUrl: settings.baseUrl, customer: settings.customer });
  const api = blockClient({ savedProductsCheck, savedProductsToggle }, settings, { session });

  let saved = false;
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  /** Clicks so far: a state read that started before a click is stale when it answers. */
  let changes = 0;

  function show(next: boolean) {
    saved = next;
    button!.setAttribute("aria-pressed", String(next));
    label!.textContent = next ? t("saved", "Saved") : t("save", "Save");
    button!.setAttribute("aria-label", interpolate(next ? t("savedLabel", "Remove {title} from your saved products") : t("saveLabel", "Save {title}"), { title }));
    root.dataset.saved = String(next);
  }

  function setError(message: string) {
    if (error) error.textContent = message;
  }

  function check(): Promise<Set<string>> {
    if (!pendingCheck) {
      const ids = new Set<string>();
      const promise = Promise.resolve().then(async () => {
        pendingCheck = null;
        const r = await api.savedProductsCheck({ query: { ids: [...ids].join(",") } });
        return new Set(r.saved);
      });
      pendingCheck = { ids, promise };
    }
    pendingCheck.ids.add(productId!);
    return pendingCheck.promise;
  }

  async function toggle() {
    const wanted = !saved;
    setError("");
    show(wanted);
    root.dataset.state = "saving";
    try {
      const r = await withSession(session, () => api.savedProductsToggle({ body: { product_id: productId!, saved: wanted } }));
      show(r.saved);
      document.dispatchEvent(new CustomEvent<SavedDetail>(SAVED_EVENT, { detail: { productId: productId!, saved: r.saved } }));
      root.dataset.state = "ready";
    } catch (e) {
      console.warn("[fashion-blocks] saving failed", e);
      show(!wanted);
      setError(t("error", "We couldn't update your saved products. Please try again."));
      root.dataset.state = "error";
    }
  }

  button.addEventListener("click", () => {
    // One change at a time: a click while saving waits for it, then toggles again.
    pending++;
    changes++;
    queue = queue.then(toggle).finally(() => {
      pending--;
    });
  });
  document.addEventListener(SAVED_EVENT, (event) => {
    const detail = (event as CustomEvent<SavedDetail>).detail;
    if (detail?.productId === productId && detail.saved !== saved) show(detail.saved);
  });

  function refresh() {
    if (!session.customer && !session.token()) return;
    const at = changes;
    check()
      .then((ids) => {
        if (!pending && changes === at) show(ids.has(productId!));
      })
      .catch((e) => console.warn("[fashion-blocks] saved state unknown", e));
  }

  show(false);
  button.disabled = false;
  root.dataset.state = "ready";
  refresh();
  // The app embed started or changed the session (e.g. merged a guest into the customer who just logged in).
  document.addEventListener("fashion:session", refresh);
}

mountAll(ROOT_SELECTOR, mount);
