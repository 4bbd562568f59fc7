/**
 * The Express handler of the Remix app, shared by server.ts and the tests that run the app
 * behind the same middleware. Always Remix's production mode: its development mode sends errors'
 * messages and stacks (file paths included) to the browser, and NODE_ENV is not "production" in
 * every deployment (APP_MODE=production does not set it); errors go to the log instead
 * (entry.server.tsx handleError). The load context carries the CSP nonce for Remix's inline scripts.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { cspNonceOf } from "./security-headers.server";

export function remixRequestHandler(build: ServerBuild, loadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext = () => ({})) {
  return createRequestHandler({
    build,
    mode: "production",
    getLoadContext: (req, res) => ({ ...loadContext(req, res), cspNonce: cspNonceOf(res) }),
  });
}
