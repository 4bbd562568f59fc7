/**
 * Request bodies read with a byte limit. `request.formData()` / `text()` buffer the whole body
 * before anyone can look at its size, so a 200 MB anonymous upload cost hundreds of megabytes of
 * memory before a 413. Here a body declared larger than the limit (Content-Length) is refused
 * without reading a byte, and any other body is counted while it streams in and refused as soon
 * as the count passes the limit: at most the limit plus the chunk that crossed it is ever read.
 */
import crypto from "node:crypto";
import { MULTIPART_ROOM_BYTES } from "~/contract/endpoint";
import { ErrorCodes } from "~/contract/messages";
import { DomainError, tooLarge } from "./domain-errors";

const MB = 1024 * 1024;

/** Ceiling of any request body (the largest upload: a clone's photos). */
export const MAX_REQUEST_BODY_BYTES = 100 * MB;
/** JSON bodies of the API, GraphQL queries, webhooks (5 MB as the API has always said). */
export const MAX_JSON_BODY_BYTES = 5_000_000;
/** Forms of the admin pages that carry no files. */
export const MAX_FORM_BODY_BYTES = 1 * MB;
/** An admin form carrying one image (uploads are at most 10 MB everywhere). */
export const ONE_IMAGE_FORM_BYTES = 10 * MB + MULTIPART_ROOM_BYTES;

export function bodyTooLargeMessage(maxBytes: number): string {
  const limit =
    maxBytes % MB === 0 ? `${maxBytes / MB} MB` : maxBytes % 1_000_000 === 0 ? `${maxBytes / 1_000_000} MB` : `${Math.max(1, Math.floor(maxBytes / 1024))} KB`;
  return `The request body is too large (at most ${limit})`;
}

/**
 * The request with a body that cannot deliver more than `maxBytes`. Throws `too_large` at once
 * when Content-Length says more; otherwise reading the body fails with `too_large` once the count
 * passes the limit (the source is cancelled, so nothing more is read).
 */
export function limitRequestBody(request: Request, maxBytes: number): Request {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) throw tooLarge(bodyTooLargeMessage(maxBytes));
  if (!request.body) return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: limitStream(request.body, maxBytes),
    signal: request.signal,
    // Node's fetch needs this for a streamed request body.
    duplex: "half",
  } as RequestInit);
}

/** A stream that passes `source` through, pulling one chunk per read, and fails past `maxBytes`. */
export function limitStream(source: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > maxBytes) {
          controller.error(tooLarge(bodyTooLargeMessage(maxBytes)));
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    // No read-ahead: a chunk is pulled from the source only when the consumer asks for one.
    { highWaterMark: 0 },
  );
}

/** Whatever failed while a limited body was read: our `too_large`, however the body reader wrapped it. */
function tooLargeIn(e: unknown): DomainError | undefined {
  for (let x: unknown = e, i = 0; x && i < 4; i++, x = (x as { cause?: unknown }).cause) {
    if (x instanceof DomainError && x.kind === "too_large") return x;
  }
  return undefined;
}

async function read<T>(request: Request, maxBytes: number, as: (r: Request) => Promise<T>): Promise<T> {
  const limited = limitRequestBody(request, maxBytes);
  try {
    return await as(limited);
  } catch (e) {
    throw tooLargeIn(e) ?? e;
  }
}

/** The multipart or urlencoded form of the request, at most `maxBytes` of body. */
export const readFormData = (request: Request, maxBytes: number) => read(request, maxBytes, (r) => r.formData());
/** The body as text, at most `maxBytes`. */
export const readText = (request: Request, maxBytes: number) => read(request, maxBytes, (r) => r.text());
/** The body as bytes, at most `maxBytes`. */
export const readArrayBuffer = (request: Request, maxBytes: number) => read(request, maxBytes, (r) => r.arrayBuffer());

/** The API's JSON error of a 413 (for routes outside the API router: admin pages, webhooks). */
export function payloadTooLargeResponse(message: string): Response {
  const requestId = crypto.randomUUID();
  return new Response(JSON.stringify({ error: { code: ErrorCodes[413], message, requestId } }), {
    status: 413,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, connection: "close" },
  });
}

/**
 * For Remix loaders/actions: runs `fn`, and a body over its limit becomes a thrown 413 Response
 * (Remix answers it as is) instead of an error page with a 500.
 */
export async function refusingLargeBodies<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const tooBig = tooLargeIn(e);
    if (tooBig) throw payloadTooLargeResponse(tooBig.message);
    throw e;
  }
}

/** An admin page's form (no files unless `maxBytes` says so), a 413 Response when it is larger. */
export const formOf = (request: Request, maxBytes: number = MAX_FORM_BODY_BYTES) => refusingLargeBodies(() => readFormData(request, maxBytes));
