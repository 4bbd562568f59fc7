/**
 * Server renders of the storefront for unit tests: the whole App at a path, with the session and
 * the query cache seeded and an API client that fails if called (effects do not run in a server
 * render, so the page shows exactly the state that was seeded).
 */
import type { ReactElement, ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter, Routes } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { User } from "~/contract";
import { shopper } from "./storefront-user";
import type { ApiClient } from "~/client";
import { App } from "../../storefront/src/App";
import { ApiContext } from "../../storefront/src/lib/api";
import { SESSION_QUERY_KEY, SessionProvider } from "../../storefront/src/lib/session";
import { GenderProvider } from "../../storefront/src/lib/gender";
import { preloadLazyComponents } from "../../storefront/src/lib/lazy-component";

// Pages and panels are split into chunks loaded on demand; loaded up front, a server render shows them.
await preloadLazyComponents();

export { shopper };

export const failingApi = new Proxy({} as ApiClient, {
  get: (_t, name) => () => Promise.reject(new Error(`unexpected API call ${String(name)}`)),
});

/**
 * A server render of `element` at `path`: the session and the query cache seeded (nothing is fetched
 * on mount and a failed query stays failed, so the render shows the seeded state) and an API client
 * that fails if called.
 */
export function renderWithSession(path: string, element: ReactNode, seed: (qc: QueryClient) => void = () => undefined, user: User | null = shopper()): string {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity } } });
  qc.setQueryData(SESSION_QUERY_KEY, user);
  seed(qc);
  return renderToString(
    <QueryClientProvider client={qc}>
      <ApiContext.Provider value={failingApi}>
        <MemoryRouter initialEntries={[path]}>
          <SessionProvider>{element}</SessionProvider>
        </MemoryRouter>
      </ApiContext.Provider>
    </QueryClientProvider>,
  );
}

/** The whole App at a path; `wrap` puts providers around it (a test's own context, such as the page meta sink). */
export function renderStorefront(path: string, seed?: (qc: QueryClient) => void, user?: User | null, wrap: (app: ReactElement) => ReactElement = (app) => app): string {
  return renderWithSession(path, wrap(<App />), seed, user);
}

/**
 * Pages on routes of the test's own (a page alone, or the layout with its pages), imported directly
 * so the render does not wait on App's lazily loaded page chunks.
 */
export function renderRoutes(path: string, routes: ReactNode, seed?: (qc: QueryClient) => void, user?: User | null): string {
  return renderWithSession(
    path,
    <GenderProvider>
      <Routes>{routes}</Routes>
    </GenderProvider>,
    seed,
    user,
  );
}
