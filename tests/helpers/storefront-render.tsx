/**
 * Server renders of the storefront for unit tests: the whole App at a path, with the session and
 * the query cache seeded and an API client that fails if called (effects do not run in a server
 * render, so the page shows exactly the state that was seeded).
 */
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { User } from "~/contract";
import { shopper } from "./storefront-user";
import type { ApiClient } from "~/client";
import { App } from "../../storefront/src/App";
import { ApiContext } from "../../storefront/src/lib/api";
import { SESSION_QUERY_KEY, SessionProvider } from "../../storefront/src/lib/session";
import { preloadLazyComponents } from "../../storefront/src/lib/lazy-component";

// Pages and panels are split into chunks loaded on demand; loaded up front, a server render shows them.
await preloadLazyComponents();

export { shopper };

export const failingApi = new Proxy({} as ApiClient, {
  get: (_t, name) => () => Promise.reject(new Error(`unexpected API call ${String(name)}`)),
});

/** `wrap` puts providers around the App (a test's own context, such as the page meta sink). */
export function renderStorefront(
  path: string,
  seed: (qc: QueryClient) => void = () => undefined,
  user: User | null = shopper(),
  wrap: (app: ReactElement) => ReactElement = (app) => app,
): string {
  // Nothing is fetched on mount and a failed query stays failed: the render shows the seeded state.
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity } } });
  qc.setQueryData(SESSION_QUERY_KEY, user);
  seed(qc);
  return renderToString(
    <QueryClientProvider client={qc}>
      <ApiContext.Provider value={failingApi}>
        <MemoryRouter initialEntries={[path]}>
          <SessionProvider>
            {wrap(<App />)}
          </SessionProvider>
        </MemoryRouter>
      </ApiContext.Provider>
    </QueryClientProvider>,
  );
}
