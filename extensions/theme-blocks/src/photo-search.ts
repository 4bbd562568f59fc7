/**
 * Photo search entry block (blocks/photo-search.liquid, assets/fd-photo-search.js): the shopper
 * picks or takes a photo; it is compressed in the browser exactly as the storefront's photo
 * search does (storefront/src/lib/photo-compress.ts: at most 1024 px on the longer side, JPEG,
 * EXIF kept), uploaded through the App Proxy to `POST /vision/product-search`, and the closest
 * products are shown as cards. Signed-in customers also get the search kept in their history
 * (the API does that for non-guest callers).
 */
import { visionProductSearch } from "virtual:fd-api-routes";
import type { ProductCard } from "~/contract/products";
import { preparePhoto } from "../../../storefront/src/lib/photo-compress";
import { parseGender } from "./feed-model";
import { ApiClientError, blockClient } from "./lib/api";
import { intSetting, readCommonSettings } from "./lib/block-settings";
import { renderGrid } from "./lib/cards";
import { el, interpolate, mountAll, statusLine, textOf } from "./lib/dom";
import { photoProblem } from "./lib/photo-check";
import { getSession } from "./lib/session";

const ROOT_SELECTOR = ".fd-photo-search";
const mounted = new WeakSet<HTMLElement>();

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const data = { ...root.dataset };
  const settings = readCommonSettings(data, window.location.origin);
  const gender = parseGender(data.gender);
  const limit = intSetting(data.limit, 8, 2, 24);
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const session = getSession({ baseUrl: settings.baseUrl, customer: settings.customer });
  const api = blockClient({ visionProductSearch }, settings, { session });

  const input = root.querySelector<HTMLInputElement>("input[type=file]");
  if (!input) return;
  const status = statusLine("fd-photo-search__status");
  const preview = el("div", "fd-photo-search__preview");
  const results = el("div", "fd-photo-search__results");
  root.querySelector(".fd-photo-search__fallback")?.remove();
  root.append(status, preview, results);
  root.classList.add("fd-photo-search--ready");
  let generation = 0;
  let previewUrl: string | null = null;

  function setState(state: "idle" | "working" | "ready" | "empty" | "error") {
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "working" ? "true" : "false");
  }

  function showPreview(file: Blob) {
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = URL.createObjectURL(file);
    const img = el("img", "fd-photo-search__thumb");
    img.src = previewUrl;
    img.alt = t("yourPhoto", "Your photo");
    preview.replaceChildren(img);
  }

  function fail(message: string) {
    setState("error");
    status.className = "fd-photo-search__status fd-photo-search__status--error";
    status.textContent = message;
    results.replaceChildren();
  }

  async function search(file: File) {
    const mine = ++generation;
    const problem = photoProblem(file);
    if (problem) {
      fail(
        problem === "heic"
          ? t("errorHeic", "HEIC photos cannot be read in this browser. Choose a JPEG, PNG or WebP photo.")
          : problem === "size"
            ? t("errorSize", "This photo is too large. Choose a smaller one.")
            : t("errorType", "This file is not a photo we can read. Choose a JPEG, PNG or WebP image."),
      );
      return;
    }
    setState("working");
    status.className = "fd-photo-search__status";
    status.textContent = t("compressing", "Preparing your photo…");
    results.replaceChildren();
    showPreview(file);
    let prepared: File;
    try {
      prepared = (await preparePhoto(file, null, { width: 0, height: 0 })).file;
    } catch (error) {
      if (mine !== generation) return;
      console.warn("[fashion-blocks] photo could not be prepared", error);
      fail(t("errorRead", "This photo could not be read. Choose another one."));
      return;
    }
    if (mine !== generation) return;
    status.textContent = t("searching", "Looking for similar products…");
    const form = new FormData();
    form.append("image", prepared, "photo.jpg");
    form.append("limit", String(limit));
    if (gender) form.append("target_gender", gender);
    let products: ProductCard[];
    try {
      products = (await api.visionProductSearch({ body: form })).results;
    } catch (error) {
      if (mine !== generation) return;
      console.warn("[fashion-blocks] photo search failed", error);
      // The server's message says what is wrong with the photo (type, size, pixels); others are generic.
      fail(error instanceof ApiClientError && error.status < 500 && error.status !== 429 ? error.message : t("error", "The photo search failed. Please try again."));
      return;
    }
    if (mine !== generation) return;
    if (!products.length) {
      setState("empty");
      status.className = "fd-photo-search__status";
      status.textContent = t("empty", "No similar products found. Try another photo.");
      return;
    }
    setState("ready");
    status.className = "fd-photo-search__status";
    status.textContent = interpolate(t("resultsCount", "{number} similar products"), { number: products.length });
    const grid = renderGrid(products, {
      className: "fd-grid fd-photo-search__grid",
      rootUrl: settings.rootUrl,
      proxyBase: settings.baseUrl,
      texts: { from: t("from", "From") },
    });
    results.replaceChildren(grid);
    root.dataset.count = String(products.length);
  }

  input.addEventListener("change", () => {
    const file = input.files?.[0];
    // Choosing the same photo again fires change again.
    input.value = "";
    if (file) void search(file);
  });
  setState("idle");
}

mountAll(ROOT_SELECTOR, mount);
