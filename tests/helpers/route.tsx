/**
 * Helpers for tests that call a Remix route's loader or action directly (admin screens) and
 * server-render its page with Polaris.
 */
import { createRequire } from "node:module";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";

// The router the pages' hooks use is the one @remix-run/react depends on (it may be its own copy).
const fromRemix = createRequire(createRequire(import.meta.url).resolve("@remix-run/react"));
const { createStaticHandler, createStaticRouter, StaticRouterProvider } = fromRemix("react-router-dom/server") as typeof import("react-router-dom/server");

/** A request to an admin page, signed in with the staff bearer token when one is given. */
export function staffRequest(path: string, token: string | null, init: RequestInit = {}): Request {
  return new Request(`http://localhost${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as object) } });
}

/** A form post to an admin page, as a Polaris form or fetcher sends it (repeated fields as pairs). */
export function staffForm(path: string, token: string | null, fields: Record<string, string> | [string, string][]): Request {
  return staffRequest(path, token, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

/** The Response a loader or action threw (redirects, 403s, 404s); fails when it answered or threw something else. */
export async function thrownResponse(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected a thrown Response");
}

/** Where a loader or action sent the browser with the redirect it threw; fails on any other answer. */
export async function redirectLocation(p: Promise<unknown>): Promise<string> {
  const res = await thrownResponse(p);
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}`);
  return res.headers.get("location") ?? "";
}

/** How a guarded loader or action refused the caller: "login" (signed out: sent to /app/login) or the status it threw (403…). */
export async function refusal(p: Promise<unknown>): Promise<"login" | number> {
  const res = await thrownResponse(p);
  return res.status === 302 && (res.headers.get("location") ?? "").startsWith("/app/login?next=") ? "login" : res.status;
}

/**
 * Server render of a route's page with the given loader data, inside Polaris' AppProvider, without
 * React's text separators so the page's sentences read as one.
 */
export async function renderRoute(page: { id: string; path: string; url: string; data: object; Component: ComponentType }): Promise<string> {
  const handler = createStaticHandler([{ id: page.id, path: page.path, loader: () => page.data, Component: page.Component }]);
  const context = await handler.query(new Request(`http://localhost${page.url}`));
  if (context instanceof Response) throw new Error(`the page answered ${context.status} instead of rendering`);
  return renderToString(
    <AppProvider i18n={enTranslations}>
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
    </AppProvider>,
  ).replaceAll("<!-- -->", "");
}
