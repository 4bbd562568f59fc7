/**
 * Server-side renders of the shopper's AI pages (My try-ons, Saved try-ons, My clones) and of the
 * shared list states they use (loading, error with Retry, empty, the list), with data seeded in the
 * query cache and an API client that fails if called (effects do not run in a server render).
 */
import { describe, expect, it, vi } from "vitest";
import { renderToString } from "react-dom/server";
import { QueryClient } from "@tanstack/react-query";
import type { CloneView, StylePreferences } from "~/contract";
import { ApiClientError } from "~/client";

const user = shopper();
const render = (path: string, seed?: (qc: QueryClient) => void) => renderStorefront(path, seed, user);
import { renderStorefront, shopper } from "../../helpers/storefront-render";
import { SAVED_TRYONS_LIST_KEY, USER_TRYONS_LIST_KEY } from "../../../storefront/src/lib/saved-tryons";
import { CLONES_KEY, HOUSE_MODELS_KEY } from "../../../storefront/src/lib/clones";
import type { TryOn } from "../../../storefront/src/lib/tryons";
import { STYLE_PREFERENCES_KEY } from "../../../storefront/src/pages/Account";
import { ListStates, LoadError } from "../../../storefront/src/components/ListStates";


const tryon = (id: string, over: Partial<TryOn> = {}): TryOn => ({
  id,
  user_id: "u1",
  clone_id: "k1",
  product_id: "gid://shopify/Product/1",
  status: "completed",
  progress: 100,
  error: null,
  enable_add_details: true,
  prompt_strength: null,
  generated_images: [{ image_url: `/uploads/tryons/${id}.jpg`, width: 512, height: 768 } as TryOn["generated_images"][number]],
  created_at: "2025-01-02T00:00:00.000Z",
  updated_at: "2025-01-02T00:00:00.000Z",
  completed_at: "2025-01-02T00:00:00.000Z",
  product: { id: "gid://shopify/Product/1", title: "Linen shirt", handle: "linen-shirt", productType: "Shirt", featuredImage: null },
  clone: { id: "k1", name: "Ada's clone", profileImageUrl: null, isPublic: false },
  request_id: null,
  ...over,
});

const clone = (over: Partial<CloneView> = {}): CloneView => ({
  id: "k1",
  name: "Ada's clone",
  gender: null,
  baseImageUrls: [],
  profileImageUrl: null,
  isPublic: false,
  attributes: {},
  user_id: "u1",
  is_owner: true,
  is_product_clone: false,
  photos: [],
  trigger_word: null,
  lora_url: null,
  processing_status: "COMPLETED",
  outfit_generation_status: "COMPLETED",
  processing_progress: 100,
  profile_image_status: null,
  training_job: null,
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
  ...over,
} as CloneView);


const text = (html: string) => html.replace(/<!-- -->/g, "");

describe("the shopper's AI pages (server render)", () => {
  it("My try-ons: the heading with the total, the account tabs, the cards and Show more", () => {
    const html = render("/try-ons", (qc) =>
      qc.setQueryData(USER_TRYONS_LIST_KEY, { pages: [{ tryons: [tryon("t1"), tryon("t2")], total: 5, skip: 0 }], pageParams: [0] })
    );
    expect(html).toContain('data-testid="tryons-page"');
    expect(html).toMatch(/<h1 id="tryons-heading" class="page__title">My try-ons<\/h1><span class="page__count" data-testid="tryons-page-count">5 try-ons<\/span>/);
    expect(html).toContain('aria-label="Your account"');
    expect(html).toContain('data-testid="tryons-list"');
    expect(html.split('data-testid="tryon-card"').length - 1).toBe(2);
    expect(html).toContain('data-testid="tryons-more"');
    expect(html).not.toContain('data-testid="tryons-empty"');
  });

  it("My try-ons: an empty state linking to the clones, no count, no Show more", () => {
    const html = render("/try-ons", (qc) => qc.setQueryData(USER_TRYONS_LIST_KEY, { pages: [{ tryons: [], total: 0, skip: 0 }], pageParams: [0] }));
    expect(html).toContain('data-testid="tryons-empty"');
    expect(text(html)).toContain("No try-ons yet");
    expect(html).toMatch(/<a class="button" href="\/clones"[^>]*>Your clones<\/a>/);
    expect(html).not.toContain("page__count");
    expect(html).not.toContain('data-testid="tryons-more"');
  });

  it("My try-ons: a spinner while the first page loads", () => {
    const html = render("/try-ons");
    expect(html).toContain("Loading your try-ons…");
    expect(html).not.toContain('data-testid="tryons-list"');
  });

  it("Saved try-ons: the cards marked as saved-tryon-card, and Show more with a next cursor", () => {
    const html = render("/saved-try-ons", (qc) =>
      qc.setQueryData(SAVED_TRYONS_LIST_KEY, {
        pages: [{ items: [{ tryon_id: "t1", createdAt: "2025-01-03T00:00:00.000Z", tryon: tryon("t1") }], nextCursor: "c2" }],
        pageParams: [undefined],
      })
    );
    expect(html).toContain('data-testid="saved-tryons-page"');
    expect(html).toContain('<h1 id="saved-tryons-heading" class="page__title">Saved try-ons</h1>');
    expect(html).toContain('data-testid="saved-tryons-list"');
    expect(html).toContain('data-testid="saved-tryon-card"');
    expect(html).toContain('data-testid="saved-tryons-more"');
  });

  it("Saved try-ons: an empty state linking to the try-ons", () => {
    const html = render("/saved-try-ons", (qc) => qc.setQueryData(SAVED_TRYONS_LIST_KEY, { pages: [{ items: [], nextCursor: null }], pageParams: [undefined] }));
    expect(html).toContain('data-testid="saved-tryons-empty"');
    expect(text(html)).toContain("Tap the heart under a try-on to keep it here.");
    expect(html).toMatch(/<a class="button" href="\/try-ons"[^>]*>Your try-ons<\/a>/);
    expect(html).not.toContain('data-testid="saved-tryons-more"');
  });

  it("My clones: the own clones with Load more, and the house models", () => {
    const html = render("/clones", (qc) => {
      qc.setQueryData(CLONES_KEY, { pages: [{ clones: [clone()], nextCursor: "c2" }], pageParams: [undefined] });
      qc.setQueryData(HOUSE_MODELS_KEY, [{ id: "h1", name: "Mira", gender: null, profileImageUrl: null, previewImageUrl: "/uploads/h1.jpg", isPublic: true }]);
    });
    expect(html).toContain('data-testid="clones-page"');
    expect(html).toContain('<h1 id="clones-heading" class="page__title">My clones</h1>');
    expect(html).toContain('data-testid="clone-list"');
    expect(html).toMatch(/data-testid="clones-more"[^>]*>Load more</);
    expect(html).toContain('data-testid="house-model"');
    expect(html).toContain("Mira");
    expect(html).not.toContain('data-testid="clones-empty"');
  });

  it("My clones: the empty note, and no house models yet", () => {
    const html = render("/clones", (qc) => {
      qc.setQueryData(CLONES_KEY, { pages: [{ clones: [], nextCursor: null }], pageParams: [undefined] });
      qc.setQueryData(HOUSE_MODELS_KEY, []);
    });
    expect(html).toContain('data-testid="clones-empty"');
    expect(html).toContain("No house models yet.");
    expect(html).not.toContain('data-testid="clones-more"');
  });
});

describe("the account page's forms (server render)", () => {
  const prefs: StylePreferences = { interests: "linen", interestList: ["linen"], gender: "womenswear", stylePreferences: [], suggestions: ["linen"] };

  it("labelled inputs and each form's submit button, before anything is sent", () => {
    const html = render("/account", (qc) => qc.setQueryData(STYLE_PREFERENCES_KEY, prefs));
    expect(html).toContain('<h1 id="account-heading" class="page__title">Account</h1>');
    expect(html).toContain(
      '<label class="field"><span class="field__label">First name</span><input class="field__input" name="first_name" autoComplete="given-name" maxLength="100" value="Ada"/></label>'
    );
    expect(html).toContain('<label class="field"><span class="field__label">Phone</span><input class="field__input" name="phone" type="tel" autoComplete="tel" maxLength="30" value=""/></label>');
    expect(html).toContain(
      '<label class="field"><span class="field__label">New password</span><input class="field__input" type="password" autoComplete="new-password" required="" minLength="8" maxLength="200" value=""/></label>'
    );
    expect(html).toContain('<button type="submit" class="button">Save profile</button>');
    expect(html).toContain('<button type="submit" class="button" data-testid="interests-save">Save interests</button>');
    expect(html).toContain('<button type="submit" class="button">Change password</button>');
    expect(html).not.toContain('class="form-error"');
    expect(html).not.toContain('class="form-ok"');
  });
});

describe("ListStates (the states of a list read from the API)", () => {
  const list = (over: Partial<{ isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }> = {}) => ({
    isPending: false,
    isError: false,
    error: null,
    refetch: vi.fn(),
    ...over,
  });
  const states = (l: ReturnType<typeof list>, count: number, headingLevel?: 2 | 3) =>
    renderToString(
      <ListStates list={l} count={count} loadingLabel="Loading things…" errorTitle="Your things could not be loaded" headingLevel={headingLevel} empty={<p>No things</p>}>
        <ul data-testid="things" />
      </ListStates>
    );

  it("shows a spinner while pending", () => {
    const html = states(list({ isPending: true }), 0);
    expect(html).toContain('role="status"');
    expect(html).toContain("Loading things…");
  });

  it("shows the error with the API's message and a Retry when nothing was loaded", () => {
    const html = states(list({ isError: true, error: new ApiClientError(503, "unavailable", "The server is down") }), 0);
    expect(html).toBe(
      '<div class="state state--error" role="alert"><h2 class="state__title">Your things could not be loaded</h2><p class="state__text">The server is down</p><button type="button" class="button">Retry</button></div>'
    );
    expect(states(list({ isError: true, error: new Error("x") }), 0, 3)).toContain('<h3 class="state__title">Your things could not be loaded</h3>');
  });

  it("keeps showing what was loaded when a later page failed", () => {
    const html = states(list({ isError: true, error: new Error("x") }), 2);
    expect(html).toBe('<ul data-testid="things"></ul>');
  });

  it("shows the empty state with nothing loaded, else the list", () => {
    expect(states(list(), 0)).toBe("<p>No things</p>");
    expect(states(list(), 1)).toBe('<ul data-testid="things"></ul>');
  });

  it("Retry asks for the list again (LoadError's button calls onRetry, ListStates passes refetch)", () => {
    const onRetry = vi.fn();
    const element = LoadError({ title: "t", error: new Error("e"), onRetry });
    const button = (element.props.children as { type: string; props: { onClick(): void } }[]).find((c) => c?.type === "button");
    button?.props.onClick();
    expect(onRetry).toHaveBeenCalledTimes(1);

    const l = list({ isError: true, error: new Error("e") });
    const shown = ListStates({ list: l, count: 0, loadingLabel: "", errorTitle: "t", empty: null, children: null }) as { props: { onRetry(): void } };
    shown.props.onRetry();
    expect(l.refetch).toHaveBeenCalledTimes(1);
  });
});
