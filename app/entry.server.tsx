/**
 * Our own entry (STACK.md: Remix's default adds isbot to package.json at build time). Shopify's
 * headers are added to every document response, as the app template does, except its
 * Content-Security-Policy: server.ts sets the whole policy (app/lib/security-headers.server.ts),
 * Shopify's frame-ancestors for embedded requests included, and a second policy header would be
 * enforced as well. Remix's inline scripts carry that policy's nonce (`cspNonce` of the load context).
 */
import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { addDocumentResponseHeaders } from "./shopify.server";
import { getLogger } from "./lib/logger.server";
import { NonceContext } from "./lib/nonce";
import { isApiPath } from "./lib/request-routing";
import { handleApiRequest } from "./api/index.server";
import { getAppContext } from "./context.server";

export const streamTimeout = 5000;

/**
 * A loader or action failed: the stack goes to the server's log only. (server.ts runs Remix in
 * production mode whatever NODE_ENV says, so the browser gets "Unexpected Server Error".)
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  const url = new URL(request.url);
  getLogger().error({ err: error, method: request.method, path: url.pathname }, "route failed");
}

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  // An /api path no route matched: Remix's splat (`api.$`) does not match a line break inside the
  // path (`/api/stores/a%0A` decodes to one, and the splat's pattern is `.*`). Every /api path
  // answers in the API's JSON shape, so the API router takes it (here: its JSON 404 or 400).
  if (isApiPath(new URL(request.url).pathname)) {
    const clientIp = typeof loadContext?.clientIp === "string" ? loadContext.clientIp : undefined;
    return handleApiRequest(request, getAppContext(), { clientIp });
  }
  addDocumentResponseHeaders(request, responseHeaders);
  responseHeaders.delete("Content-Security-Policy");
  const nonce = typeof loadContext?.cspNonce === "string" ? loadContext.cspNonce : undefined;
  return new Promise<Response>((resolve, reject) => {
    const app = (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onShellReady() {
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        getLogger().error({ err: error, path: new URL(request.url).pathname }, "page render failed");
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
