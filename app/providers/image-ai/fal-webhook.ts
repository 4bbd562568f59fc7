/**
 * fal.ai webhooks: what fal POSTs to the `fal_webhook` URL given at submit when a queued request
 * settles, and how we decide to trust it.
 *
 * Body (fal docs, "Webhooks"):
 *   {request_id, gateway_request_id, status: "OK" | "ERROR", payload, error?, payload_error?}
 * `payload` is the endpoint's output on OK and the error detail on ERROR; it is null (with
 * `payload_error`) when fal could not serialise it — then the result must be fetched from the
 * queue (provider.status). fal retries delivery (10 times over 2 hours) until we answer 2xx, so
 * the same webhook may arrive more than once, and late (after a poll already settled the request).
 *
 * Trust. Our webhook URL is `POST /api/fal/webhook?request=<our request id>&token=<hex>` where the
 * token is HMAC-SHA256(FAL_WEBHOOK_SECRET, our request id) (`falWebhookToken`). A request id the
 * sender cannot sign is refused (`verifyFalWebhook`, timing-safe). This is checked offline —
 * no key fetch, works in tests and behind egress filters — and binds the webhook to ONE of our
 * requests, so a valid call for request A cannot settle request B; the body's request_id must
 * then also equal that row's provider_request_id. Only fal (and whoever reads our own logs) ever
 * sees the URL.
 *
 * fal also signs every delivery with ED25519: headers X-Fal-Webhook-Request-Id, -User-Id,
 * -Timestamp (unix seconds) and -Signature (hex) over
 *   `${requestId}\n${userId}\n${timestamp}\n${sha256hex(rawBody)}`
 * with public keys published as a JWKS (OKP/Ed25519, `x` base64url) at FAL_JWKS_URL.
 * `verifyFalWebhookSignature` checks that given a JWKS (fetch it with `fetchFalJwks`, cached 24 h):
 * it needs the RAW body bytes and network access to fal's JWKS, which is why the token is the
 * primary check and the signature an optional second one (the route can require both when a
 * JWKS is configured/reachable).
 */
import crypto from "node:crypto";
import { z } from "zod";
import { ImageAiProviderError } from "./port";

/** fal's public webhook keys (older docs name rest.alpha.fal.ai for the same set). */
export const FAL_JWKS_URL = "https://rest.fal.ai/.well-known/jwks.json";
/** fal's deliveries carry a timestamp; older or future ones beyond this are refused. */
export const FAL_SIGNATURE_TOLERANCE_SECONDS = 300;

export interface FalWebhook {
  /** fal's request id (our row's provider_request_id). */
  providerRequestId: string;
  status: "OK" | "ERROR";
  /** Endpoint output (OK) or error detail (ERROR); null when fal could not serialise it. */
  payload: unknown;
  error?: string;
  /** The gateway id of the last attempt (differs from request_id when fal retried it). */
  gatewayRequestId?: string;
  /** True when the payload is missing (payload_error): fetch the result with provider.status(). */
  payloadMissing?: boolean;
}

const WebhookBody = z.object({
  request_id: z.string().min(1).max(200),
  gateway_request_id: z.string().max(200).nullish(),
  status: z.enum(["OK", "ERROR"]),
  payload: z.unknown().optional(),
  error: z.string().nullish(),
  payload_error: z.string().nullish(),
});

/** fal's 422 detail ([{loc, msg, type}] or a string) in one line. */
export function describeFalDetail(detail: unknown): string | undefined {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const parts = detail
      .map((d) => {
        if (typeof d === "string") return d;
        if (d && typeof d === "object") {
          const o = d as { loc?: unknown; msg?: unknown };
          const loc = Array.isArray(o.loc) ? o.loc.filter((l) => l !== "body").join(".") : "";
          const msg = typeof o.msg === "string" ? o.msg : JSON.stringify(d);
          return loc ? `${loc}: ${msg}` : msg;
        }
        return String(d);
      })
      .filter(Boolean);
    return parts.length ? parts.join("; ") : undefined;
  }
  if (detail && typeof detail === "object") {
    const o = detail as { detail?: unknown; message?: unknown; error?: unknown };
    return describeFalDetail(o.detail) ?? (typeof o.message === "string" ? o.message : undefined) ?? (typeof o.error === "string" ? o.error : undefined);
  }
  return undefined;
}

/** Parses a webhook body (already JSON-decoded). Throws a non-retryable ImageAiProviderError when it is not one. */
export function parseFalWebhook(body: unknown): FalWebhook {
  const parsed = WebhookBody.safeParse(body);
  if (!parsed.success) {
    throw new ImageAiProviderError(`Not a fal webhook body: ${parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ")}`, false);
  }
  const b = parsed.data;
  const payload = b.payload ?? null;
  const out: FalWebhook = { providerRequestId: b.request_id, status: b.status, payload };
  if (b.gateway_request_id) out.gatewayRequestId = b.gateway_request_id;
  if (b.status === "ERROR") {
    const detail = describeFalDetail(payload);
    const head = b.error ?? "fal reported an error";
    out.error = detail && !head.includes(detail) ? `${head}: ${detail}` : head;
  } else if (payload === null) {
    out.payloadMissing = true;
    out.error = b.payload_error ? `fal could not include the result: ${b.payload_error}` : "fal sent no result";
  }
  return out;
}

/** The token of our webhook URL for one of our request ids. */
export function falWebhookToken(requestId: string, secret: string): string {
  return crypto.createHmac("sha256", secret).update(requestId).digest("hex");
}

/** Our webhook URL for a request (`origin` = APP_URL). */
export function falWebhookUrl(origin: string, requestId: string, secret: string): string {
  const u = new URL("/api/fal/webhook", origin);
  u.searchParams.set("request", requestId);
  u.searchParams.set("token", falWebhookToken(requestId, secret));
  return u.toString();
}

/** True when `token` is HMAC-SHA256(secret, requestId) in hex (timing-safe; false on anything malformed). */
export function verifyFalWebhook(args: { requestId: string | null | undefined; token: string | null | undefined; secret: string }): boolean {
  const { requestId, token, secret } = args;
  if (!requestId || !token || !secret) return false;
  if (!/^[0-9a-f]{64}$/i.test(token)) return false;
  const expected = Buffer.from(falWebhookToken(requestId, secret), "hex");
  const given = Buffer.from(token.toLowerCase(), "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export interface FalJwks {
  keys: { kty?: string; crv?: string; x?: string; kid?: string }[];
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;
const header = (h: HeaderSource, name: string): string | undefined => {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key ? rec[key] : undefined;
  return Array.isArray(v) ? v[0] : v;
};

/** The bytes fal signs for a delivery. */
export function falSignedMessage(requestId: string, userId: string, timestamp: string, rawBody: Uint8Array | string): Buffer {
  const digest = crypto.createHash("sha256").update(rawBody).digest("hex");
  return Buffer.from([requestId, userId, timestamp, digest].join("\n"), "utf8");
}

/**
 * Verifies fal's ED25519 signature headers against a JWKS. `rawBody` must be the exact bytes
 * received. Any key of the set may have signed (fal rotates keys).
 */
export function verifyFalWebhookSignature(args: {
  headers: HeaderSource;
  rawBody: Uint8Array | string;
  jwks: FalJwks;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): { ok: true; requestId: string; userId: string } | { ok: false; reason: string } {
  const requestId = header(args.headers, "x-fal-webhook-request-id");
  const userId = header(args.headers, "x-fal-webhook-user-id");
  const timestamp = header(args.headers, "x-fal-webhook-timestamp");
  const signature = header(args.headers, "x-fal-webhook-signature");
  if (!requestId || !userId || !timestamp || !signature) return { ok: false, reason: "missing X-Fal-Webhook-* signature headers" };
  const ts = Number(timestamp);
  const now = args.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!Number.isFinite(ts) || Math.abs(now - ts) > (args.toleranceSeconds ?? FAL_SIGNATURE_TOLERANCE_SECONDS)) return { ok: false, reason: "timestamp outside the allowed window" };
  if (!/^[0-9a-f]+$/i.test(signature) || signature.length !== 128) return { ok: false, reason: "malformed signature" };
  const sig = Buffer.from(signature, "hex");
  const message = falSignedMessage(requestId, userId, timestamp, args.rawBody);
  for (const k of args.jwks.keys ?? []) {
    if (!k.x || (k.crv && k.crv !== "Ed25519")) continue;
    try {
      // fal's published x has been seen with base64 padding; JWK import wants it unpadded.
      const key = crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: k.x.replace(/=+$/, "") }, format: "jwk" });
      if (crypto.verify(null, message, key, sig)) return { ok: true, requestId, userId };
    } catch {
      // a key we cannot import cannot have signed it
    }
  }
  return { ok: false, reason: "signature does not match any of fal's keys" };
}

let jwksCache: { url: string; at: number; jwks: FalJwks } | null = null;

/** fal's JWKS (cached 24 h, as fal recommends). Throws when unreachable. */
export async function fetchFalJwks(url = FAL_JWKS_URL, fetchImpl: typeof fetch = fetch, maxAgeMs = 24 * 3600_000): Promise<FalJwks> {
  if (jwksCache && jwksCache.url === url && Date.now() - jwksCache.at < maxAgeMs) return jwksCache.jwks;
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`fal JWKS ${url} answered ${res.status}`);
  const jwks = (await res.json()) as FalJwks;
  if (!Array.isArray(jwks?.keys)) throw new Error(`fal JWKS ${url} has no keys`);
  jwksCache = { url, at: Date.now(), jwks };
  return jwks;
}
