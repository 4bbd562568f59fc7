/**
 * Add to cart block (blocks/add-to-cart.liquid, assets/fd-add-to-cart.js): puts the page's
 * product in the THEME's cart through Shopify's Ajax Cart API (app/client/theme-cart.ts, the same
 * client library as the app's API), so the Online Store's own cart and checkout take it from
 * there. The variant is the one the theme's product form has selected (its `id` field, which the
 * theme's variant picker keeps current), else the product's selected or first available variant.
 * After the add it reads the cart back and tells the theme (count bubble and `cart:refresh`).
 */
import { addToThemeCart, announceThemeCart, numericVariantId, ThemeCartError } from "~/client/theme-cart";
import { boolSetting } from "./lib/block-settings";
import { interpolate, mountAll, textOf } from "./lib/dom";

const ROOT_SELECTOR = ".fd-add-to-cart";
const mounted = new WeakSet<HTMLElement>();

/** The variant the theme's product form has selected (Dawn and most themes: `form[action*="/cart/add"] [name="id"]`). */
function themeSelectedVariant(root: HTMLElement): number | null {
  const section = root.closest("section, .shopify-section, main") ?? document;
  for (const scope of [section, document]) {
    const input = scope.querySelector<HTMLInputElement | HTMLSelectElement>('form[action*="/cart/add"] [name="id"]');
    const id = input ? numericVariantId(input.value) : null;
    if (id !== null) return id;
  }
  return null;
}

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const button = root.querySelector<HTMLButtonElement>("button.fd-add-to-cart__button");
  const label = root.querySelector<HTMLElement>(".fd-add-to-cart__label");
  const status = root.querySelector<HTMLElement>(".fd-add-to-cart__status");
  const qty = root.querySelector<HTMLInputElement>("input.fd-add-to-cart__qty");
  if (!button || !label) return;
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const fallbackVariant = numericVariantId(root.dataset.variantId ?? "");
  const opts = { cartAddUrl: root.dataset.cartAddUrl || "/cart/add", cartUrl: root.dataset.cartUrl || "/cart" };
  const say = (text: string, error = false) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("fd-add-to-cart__status--error", error);
  };

  if (root.dataset.available === "false" || (fallbackVariant === null && !themeSelectedVariant(root))) {
    label.textContent = t("soldOut", "Sold out");
    button.disabled = true;
    root.dataset.state = "sold-out";
    return;
  }
  if (qty && boolSetting(root.dataset.showQuantity, true)) qty.hidden = false;

  let busy = false;
  button.addEventListener("click", async () => {
    if (busy) return;
    const variant = themeSelectedVariant(root) ?? fallbackVariant;
    if (variant === null) return;
    busy = true;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    label.textContent = t("adding", "Adding…");
    root.dataset.state = "adding";
    say("");
    try {
      const quantity = Math.max(1, Math.min(99, Number.parseInt(qty?.value ?? "1", 10) || 1));
      const cart = await addToThemeCart(variant, quantity, opts);
      announceThemeCart(cart);
      say(interpolate(t("added", "Added to your cart ({count} items)"), { count: cart.item_count }));
      root.dataset.state = "added";
      root.dataset.cartCount = String(cart.item_count);
    } catch (e) {
      console.warn("[fashion-blocks] add to cart failed", e);
      say(e instanceof ThemeCartError && e.status === 422 ? e.message : t("error", "We couldn't add this to your cart. Please try again."), true);
      root.dataset.state = "error";
    } finally {
      busy = false;
      button.disabled = false;
      button.removeAttribute("aria-busy");
      label.textContent = t("add", "Add to cart");
    }
  });

  button.disabled = false;
  root.dataset.state = "ready";
}

mountAll(ROOT_SELECTOR, mount);
