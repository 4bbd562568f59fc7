import { describe, expect, it } from "vitest";
import { isApiPath, isRemixRequest } from "../../app/lib/request-routing";

const route = (url: string) => {
  const u = new URL(url, "http://localhost");
  return isRemixRequest(u.pathname, u.searchParams) ? "remix" : "storefront";
};

describe("isRemixRequest", () => {
  it.each([
    "/app",
    "/app/vendors",
    "/auth/login",
    "/auth/callback?code=1",
    "/api",
    "/api/x",
    "/api/users/me",
    "/webhooks/app/uninstalled",
    "/proxy/api/products",
    "/?shop=demo.myshopify.com",
    "/?host=YWRtaW4&embedded=1",
    "/?embedded=1",
    // Local simulation of the App Proxy and the theme.
    "/apps/fashion/api/products",
    "/theme-preview",
    // Remix single-fetch data requests of those routes.
    "/app.data",
    "/app/admins.data?role=ADMIN",
    "/_root.data",
    "/__manifest?p=%2Fapp%2Fvendor&version=abc",
  ])("%s goes to the Remix app", (url) => {
    expect(route(url)).toBe("remix");
  });

  it.each(["/", "/mens", "/womens", "/stores", "/stores/north", "/products/linen-shirt", "/search?q=linen", "/appsx", "/application", "/apis", "/authors", "/?q=shop", "/mens.data", "/stores.data"])(
    "%s goes to the storefront",
    (url) => {
      expect(route(url)).toBe("storefront");
    },
  );

  it("shop parameters only mark the root as the embedded admin", () => {
    expect(route("/mens?shop=demo.myshopify.com")).toBe("storefront");
  });
});

describe("isApiPath", () => {
  it("is /api and everything under it, nothing else", () => {
    expect(["/api", "/api/", "/api/stores/a\n", "/api/docs"].map(isApiPath)).toEqual([true, true, true, true]);
    expect(["/apis", "/app/api", "/", "/apps/fashion/api"].map(isApiPath)).toEqual([false, false, false, false]);
  });
});
