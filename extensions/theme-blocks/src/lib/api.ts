/**
 * The blocks' API client: the app's client library (app/client/core.ts) over the endpoints a
 * block uses, through the App Proxy, with the page's session.
 */
import { createRouteClient, type ClientFor } from "~/client/core";
import type { EndpointDef } from "~/contract/endpoint";
import type { CommonSettings } from "./block-settings";
import type { BlockSession } from "./session";

export function blockClient<T extends Record<string, EndpointDef>>(
  routes: T,
  settings: Pick<CommonSettings, "baseUrl">,
  opts: { session?: BlockSession; fetch?: typeof fetch } = {},
): ClientFor<T> {
  const { session } = opts;
  return createRouteClient(routes, {
    baseUrl: settings.baseUrl,
    apiPrefix: "/api",
    credentials: "same-origin",
    fetch: opts.fetch,
    getToken: session ? () => session.token() : undefined,
  });
}

export { ApiClientError } from "~/client/core";
