/**
 * Server renders of the shopper's list pages — Following, Saved, Notifications, Orders, Returns, a
 * collection — in each state of their list (first page loading, nothing loaded because of an error,
 * a later page failed, empty, a list) and of the sign-in form: the frame (section, tabs, heading),
 * the states' exact markup, and the test ids the end-to-end tests rely on; and the options of the
 * shared ListStates / LoadError those pages use.
 */
import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { ListStates, LoadError } from "../../../storefront/src/components/ListStates";
import { CASES, apiError, pageSection, text } from "./account-pages.fixtures";

const accountNav = '<nav class="account-nav" aria-label="Your account">';
const ordersNav = '<nav class="orders-nav" aria-label="Orders and notifications">';

/** The page's frame: its section, its tabs, and the heading (with nothing else in the head). */
function expectFrame(section: string, f: { testId: string; headingId: string; title: string; kind: "account" | "orders" }) {
  expect(
    section.startsWith(
      `<section class="page ${f.kind}-page" aria-labelledby="${f.headingId}" data-testid="${f.testId}">${f.kind === "account" ? accountNav : ordersNav}`
    )
  ).toBe(true);
  expect(section).toContain(`</nav><div class="page__head"><h1 id="${f.headingId}" class="page__title">${f.title}</h1></div>`);
}

const spinner = (label: string) =>
  `<span class="spinner" role="status"><span class="spinner__dot" aria-hidden="true"></span><span class="spinner__label">${label}</span></span>`;
const loadError = (title: string, message: string, h = "h2") =>
  `<div class="state state--error" role="alert"><${h} class="state__title">${title}</${h}><p class="state__text">${message}</p><button type="button" class="button">Retry</button></div>`;

const page = (name: keyof typeof CASES, testId: string) => pageSection(CASES[name](), testId);

describe("Following (server render)", () => {
  const frame = { testId: "following-page", headingId: "following-heading", title: "Following", kind: "account" } as const;

  it("a spinner while the first page loads, in the account frame", () => {
    const s = page("followingPending", "following-page");
    expectFrame(s, frame);
    expect(s).toContain(`</h1></div>${spinner("Loading the stores you follow…")}</section>`);
  });

  it("the error with the API's message (else “Please try again in a moment.”) and a Retry", () => {
    expect(page("followingError", "following-page")).toContain(
      `</h1></div>${loadError("Failed to fetch user favorite stores", "The server is down")}</section>`
    );
    expect(page("followingErrorFallback", "following-page")).toContain(loadError("Failed to fetch user favorite stores", "Please try again in a moment."));
  });

  it("a later page's failure keeps the list and offers Try again", () => {
    const s = page("followingNextPageError", "following-page");
    expect(s).toContain('data-testid="following-list"');
    expect(s).toContain(
      '<div class="inline-state" role="alert" data-testid="following-error"><p class="inline-state__text">Failed to fetch user favorite stores</p>'
    );
    expect(s).not.toContain("state--error");
  });

  it("the empty state linking to the stores; the guest note for guests", () => {
    const s = page("followingEmpty", "following-page");
    expect(s).toContain(
      '</h1></div><div class="state" data-testid="following-empty"><h2 class="state__title">You are not following any stores yet</h2><p class="state__text">Follow a store to see its new arrivals in your feed.</p><a class="button" href="/stores">Browse stores</a></div></section>'
    );
    expect(page("followingGuestEmpty", "following-page")).toContain('data-testid="guest-note"');
    expect(s).not.toContain('data-testid="guest-note"');
  });

  it("the list with its infinite-scroll footer", () => {
    const s = page("followingList", "following-page");
    expect(s).toContain(
      '</h1></div><ul class="store-list" data-testid="following-list"><li class="store-row" data-testid="followed-store" data-store-id="s1">'
    );
    expect(s).toContain('data-testid="following-sentinel"');
    expect(s).toContain('data-testid="following-more"');
  });

  it("waits for the session", () => {
    const s = page("followingNoSession", "following-page");
    expectFrame(s, frame);
    expect(s).toContain(spinner("Loading…"));
    expect(s).not.toContain("following-list");
  });
});

describe("Saved (server render)", () => {
  it("card skeletons while the first page loads, in the account frame", () => {
    const s = page("savedPending", "saved-page");
    expectFrame(s, { testId: "saved-page", headingId: "saved-heading", title: "Saved", kind: "account" });
    expect(s).toContain('</h1></div><div class="grid" role="status" aria-busy="true" aria-label="Loading saved products">');
    expect(s.split("card--skeleton").length - 1).toBe(4);
  });

  it("the error with a Retry; a later page's failure keeps the list", () => {
    expect(page("savedError", "saved-page")).toContain(`</h1></div>${loadError("Your saved products could not be loaded", "The server is down")}</section>`);
    const later = page("savedNextPageError", "saved-page");
    expect(later).toContain('data-testid="saved-list"');
    expect(later).toContain('<p class="inline-state__text">Page two failed</p>');
  });

  it("the empty state, and the list with an unavailable product", () => {
    expect(page("savedEmpty", "saved-page")).toContain(
      '</h1></div><div class="state" data-testid="saved-empty"><h2 class="state__title">Nothing saved yet</h2><p class="state__text">Tap the heart on any product to keep it here.</p><a class="button" href="/">Start browsing</a></div></section>'
    );
    const s = page("savedList", "saved-page");
    expect(s).toContain('</h1></div><div class="grid" data-testid="saved-list">');
    expect(s).toContain("Linen coat 1");
    expect(s).toContain('data-testid="saved-unavailable"');
    expect(s).toContain('data-testid="saved-footer"');
  });
});

describe("Notifications (server render)", () => {
  const frame = { testId: "notifications-page", headingId: "notifications-heading", title: "Notifications", kind: "orders" } as const;

  it("asks a guest to sign in, in the orders frame", () => {
    const s = page("notificationsGuest", "notifications-page");
    expectFrame(s, frame);
    expect(text(s)).toContain('</h1></div><div class="state" data-testid="orders-signin"><h2 class="state__title">Sign in to see your notifications</h2>');
  });

  it("a spinner, the error with a Retry, the empty state", () => {
    expect(page("notificationsPending", "notifications-page")).toContain(`</h1></div>${spinner("Loading your notifications…")}</section>`);
    expect(page("notificationsError", "notifications-page")).toContain(
      `</h1></div>${loadError("Your notifications could not be loaded", "The server is down")}</section>`
    );
    expect(page("notificationsEmpty", "notifications-page")).toContain(
      '</h1></div><div class="state" data-testid="notifications-empty"><h2 class="state__title">No notifications</h2><p class="state__text">Ask to be told when a sold-out product is back, or when new products match a search.</p></div></section>'
    );
  });

  it("the list with Remove and Show more; the drop offer above the list", () => {
    const s = page("notificationsList", "notifications-page");
    expect(s).toContain(
      '</h1></div><ul class="notif-list" data-testid="notification-list"><li class="notif" data-testid="notification-request" data-kind="back_in_stock" data-status="active">'
    );
    expect(s).toContain('data-testid="notification-remove"');
    expect(s).toMatch(/data-testid="notifications-more">Show more<\/button><\/div><\/section>$/);
    expect(page("notificationsDropOffer", "notifications-page")).toContain('</h1></div><div class="notice order-notice" data-testid="drop-offer">');
  });
});

describe("Orders (server render)", () => {
  const frame = { testId: "orders-page", headingId: "orders-heading", title: "Orders", kind: "orders" } as const;

  it("asks a guest to sign in; a spinner while loading", () => {
    const guest = page("ordersGuest", "orders-page");
    expectFrame(guest, frame);
    expect(text(guest)).toContain('<h2 class="state__title">Sign in to see your orders</h2>');
    const pending = page("ordersPending", "orders-page");
    expectFrame(pending, frame);
    expect(pending).toContain(`</h1></div>${spinner("Loading your orders…")}</section>`);
  });

  it("the error with a Retry; a later page's failure keeps the list", () => {
    expect(page("ordersError", "orders-page")).toContain(`</h1></div>${loadError("Your orders could not be loaded", "The server is down")}</section>`);
    const later = page("ordersNextPageError", "orders-page");
    expect(later).toContain('data-testid="order-list"');
    expect(later).toContain(
      '<div class="orders-more"><p class="form-error" role="alert">More orders could not be loaded.</p><button type="button" class="button button--ghost" data-testid="orders-more">Show more orders</button></div></section>'
    );
  });

  it("the empty state, and the list of order cards", () => {
    expect(page("ordersEmpty", "orders-page")).toContain(
      '</h1></div><div class="state" data-testid="orders-empty"><h2 class="state__title">No orders yet</h2><p class="state__text">When you buy something, it shows up here with its delivery status.</p><a class="button" href="/">Start shopping</a></div></section>'
    );
    const s = page("ordersList", "orders-page");
    expect(s).toContain(
      '</h1></div><ol class="order-list" data-testid="order-list"><li class="order-card" data-testid="order-card" data-order-id="gid://shopify/Order/5400004">'
    );
    expect(s).toContain('href="/account/orders/5400004"');
    expect(s).toContain('data-testid="orders-more"');
  });
});

describe("Returns (server render)", () => {
  const frame = { testId: "returns-page", headingId: "returns-heading", title: "Returns", kind: "orders" } as const;

  it("asks a guest to sign in; a spinner while loading", () => {
    const guest = page("returnsGuest", "returns-page");
    expectFrame(guest, frame);
    expect(text(guest)).toContain('<h2 class="state__title">Sign in to see your returns</h2>');
    expect(page("returnsPending", "returns-page")).toContain(`</h1></div>${spinner("Loading your returns…")}</section>`);
  });

  it("the error with a Retry; a later page's failure keeps the list", () => {
    expect(page("returnsError", "returns-page")).toContain(`</h1></div>${loadError("Your returns could not be loaded", "The server is down")}</section>`);
    const later = page("returnsNextPageError", "returns-page");
    expect(later).toContain('data-testid="return-list"');
    expect(later).toContain(
      '<p class="form-error" role="alert">More returns could not be loaded.</p><button type="button" class="button button--ghost" data-testid="returns-more">Show more returns</button>'
    );
  });

  it("the empty state linking to the orders, and the return cards with their timeline", () => {
    expect(page("returnsEmpty", "returns-page")).toContain(
      '</h1></div><div class="state" data-testid="returns-empty"><h2 class="state__title">No returns</h2><p class="state__text">To send something back, open the order and choose “Request a return”.</p><a class="button" href="/account/orders">Your orders</a></div></section>'
    );
    const s = page("returnsList", "returns-page");
    expect(s).toContain('</h1></div><ol class="order-list" data-testid="return-list"><li class="return-card" data-testid="return-card" data-return-id="r1">');
    expect(s).toContain('data-testid="return-timeline"');
    expect(s).not.toContain('data-testid="returns-more"');
  });
});

describe("a collection (server render)", () => {
  const opening = '<section class="page account-page" aria-labelledby="collection-heading" data-testid="my-collection-page">' + accountNav;

  it("a spinner while it loads; “not found”; the error with a Retry (as the page's heading)", () => {
    const pending = page("collectionPending", "my-collection-page");
    expect(pending.startsWith(opening)).toBe(true);
    expect(pending).toContain(`</nav>${spinner("Loading collection…")}</section>`);
    expect(page("collectionNotFound", "my-collection-page")).toContain(
      '</nav><div class="state"><h1 class="state__title">Collection not found</h1><a class="button" href="/my-collections">My collections</a></div></section>'
    );
    expect(page("collectionError", "my-collection-page")).toContain(
      `</nav>${loadError("This collection could not be loaded", "The server is down", "h1")}</section>`
    );
  });

  it("its head (name, actions, description, count) above the products' skeletons", () => {
    const s = page("collectionProductsPending", "my-collection-page");
    expect(s).toContain('<div class="page__head"><h1 id="collection-heading" class="page__title">Winter knits</h1><div class="uc-head__actions">');
    expect(s).toContain('data-testid="collection-rename"');
    expect(s).toContain('data-testid="collection-delete"');
    expect(s).toContain('<p class="uc-head__text">Warm things</p>');
    expect(text(s)).toContain(
      '<p class="page__count" data-testid="collection-count">1 product</p></header><div class="grid" role="status" aria-busy="true" aria-label="Loading products">'
    );
    expect(s.split("card--skeleton").length - 1).toBe(4);
  });

  it("the products' error with a Retry, and their empty state", () => {
    expect(page("collectionProductsError", "my-collection-page")).toContain(
      `</header>${loadError("The products could not be loaded", "The server is down")}</section>`
    );
    expect(page("collectionProductsEmpty", "my-collection-page")).toContain(
      '</header><div class="state" data-testid="collection-empty"><h2 class="state__title">No products yet</h2><p class="state__text">Use “Add to collection” on any product to add it here.</p></div></section>'
    );
  });

  it("the products with Remove buttons, an unavailable one, and the footer", () => {
    const s = page("collectionProductsList", "my-collection-page");
    expect(s).toContain(
      '</header><div class="grid" data-testid="collection-products"><div class="uc-item" data-testid="collection-item" data-product-id="gid://shopify/Product/1">'
    );
    expect(s.split('data-testid="collection-remove-product"').length - 1).toBe(2);
    expect(s).toContain("No longer available");
    expect(s).toContain('data-testid="collection-products-footer"');
  });
});

describe("Sign in (server render)", () => {
  it("the labelled email and password fields and the submit button", () => {
    const html = CASES.login();
    expect(html).toContain(
      '<label class="field"><span class="field__label">Email</span><input class="field__input" type="email" name="email" autoComplete="email" required="" maxLength="254" value=""/></label>' +
        '<label class="field"><span class="field__label">Password</span><input class="field__input" type="password" name="password" autoComplete="current-password" required="" maxLength="200" value=""/></label>' +
        '<p class="auth-card__links"><a data-testid="login-forgot" href="/forgot-password">Forgot password?</a></p>' +
        '<button type="submit" class="button button--block">Sign in</button>'
    );
    expect(html).toContain('<a data-testid="login-register" href="/register">Create an account</a>');
    expect(html).toContain('<h1 id="login-heading" class="auth-card__title">Sign in</h1>');
  });

  it("a signed-in shopper sees who they are, with Sign out", () => {
    const html = text(CASES.loginSignedIn());
    expect(html).toContain(
      '<h1 id="login-heading" class="auth-card__title">You&#x27;re signed in</h1><p class="auth-card__text">Signed in as ada@example.test.</p>'
    );
    expect(html).toContain(">Sign out</button>");
    expect(html).not.toContain('class="field"');
  });
});

describe("the shared frame and list states' options", () => {
  const list = (over: Partial<{ isPending: boolean; isError: boolean; error: unknown }> = {}) => ({
    isPending: false,
    isError: false,
    error: null,
    refetch: () => undefined,
    ...over,
  });

  it("ListStates: `loading` replaces the spinner; `errorFallback` is the message of an error the API did not word", () => {
    const states = (l: ReturnType<typeof list>) =>
      renderToString(
        <ListStates list={l} count={0} loading={<div data-testid="skeleton" />} errorTitle="Failed" errorFallback="Try later." empty={<p>None</p>}>
          <ul />
        </ListStates>
      );
    expect(states(list({ isPending: true }))).toBe('<div data-testid="skeleton"></div>');
    expect(states(list({ isError: true, error: new Error("x") }))).toBe(loadError("Failed", "Try later."));
    expect(states(list({ isError: true, error: apiError("Down") }))).toBe(loadError("Failed", "Down"));
  });

  it("LoadError: a level-1 heading when the error is the page", () => {
    expect(renderToString(<LoadError title="Gone" error={apiError("Down")} onRetry={() => undefined} headingLevel={1} />)).toBe(
      loadError("Gone", "Down", "h1")
    );
  });
});
