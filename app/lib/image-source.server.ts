/**
 * Reading an image named by a URL, safely:
 * - our own storage URLs (`/uploads/<key>`, or the same path under APP_URL) are read from
 *   storage, never over HTTP;
 * - other http(s) URLs are fetched with a deadline, a size cap and at most 3 redirects, and only
 *   from public addresses: every address a host name resolves to is checked at connection time
 *   (the check sits in the socket's DNS lookup, so a name cannot resolve to a public address for
 *   the check and to a private one for the connection), refusing loopback, private, link-local,
 *   CGNAT, multicast, unspecified and reserved ranges, IPv4 and IPv6 (SSRF).
 * Providers (image AI, the Taobao source) and services both read images this way, so it sits
 * below both and takes only the configuration and storage it needs.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { AppConfig } from "~/config.server";
import type { StoragePort } from "~/providers/storage.server";
import { domainErrorOfStatus } from "~/lib/domain-errors";

export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
export const IMAGE_FETCH_MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** What reading one of our own file URLs needs: the app's origins and the storage. */
export interface ImageSourceContext {
  config: Pick<AppConfig, "APP_URL" | "SHOPIFY_APP_URL">;
  storage: Pick<StoragePort, "get" | "publicUrl">;
}

export class ImageSourceError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 413 | 415 | 422 | 503,
  ) {
    super(message);
    this.name = "ImageSourceError";
  }
}

// ---------------------------------------------------------------------------------------------
// Addresses

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata at 169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

/** Whether an IP address is one a server-side fetch must not reach. */
export function isPrivateAddress(ip: string): boolean {
  const kind = net.isIP(ip);
  if (kind === 4) {
    const n = ipv4ToInt(ip);
    return V4_BLOCKED.some(([base, bits]) => (n >>> (32 - bits)) === (ipv4ToInt(base) >>> (32 - bits)));
  }
  if (kind === 6) {
    const v = ip.toLowerCase().split("%")[0];
    const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(v);
    if (mapped) return isPrivateAddress(mapped[1]);
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v);
    if (hexMapped) {
      const hi = parseInt(hexMapped[1], 16);
      const lo = parseInt(hexMapped[2], 16);
      return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    if (v === "::" || v === "::1") return true;
    const first = parseInt(v.split(":")[0] || "0", 16);
    if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
    if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
    if ((first & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
    if ((first & 0xff00) === 0xff00) return true; // multicast
    if (v.startsWith("64:ff9b:") || v.startsWith("2001:db8:") || v.startsWith("100::")) return true; // NAT64, documentation, discard
    return false;
  }
  return true;
}

export interface FetchPolicy {
  /** Decides per resolved address; the default refuses private ones. Tests may allow loopback. */
  allowAddress?: (ip: string) => boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

function guardedLookup(allow: (ip: string) => boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...(options as dns.LookupOptions), all: true }, (err, addresses) => {
      if (err) return (callback as (e: Error | null, a: string, f: number) => void)(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !allow(a.address));
      if (refused || !list.length) {
        const e = Object.assign(new Error(`Refusing to fetch from ${hostname} (${refused?.address ?? "no address"}): not a public address`), { code: "EPRIVATE" });
        return (callback as (e: Error | null, a: string, f: number) => void)(e, "", 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      (callback as (e: Error | null, a: string, f: number) => void)(null, list[0].address, list[0].family);
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Fetch

interface Fetched {
  bytes: Uint8Array;
  contentType: string;
  finalUrl: string;
}

/** GET an http(s) URL under the policy (public addresses only by default). */
export async function fetchPublicImage(rawUrl: string, policy: FetchPolicy = {}): Promise<Fetched> {
  const allow = policy.allowAddress ?? ((ip: string) => !isPrivateAddress(ip));
  const timeoutMs = policy.timeoutMs ?? IMAGE_FETCH_TIMEOUT_MS;
  const maxBytes = policy.maxBytes ?? IMAGE_FETCH_MAX_BYTES;
  const deadline = Date.now() + timeoutMs;
  let url = parseHttpUrl(rawUrl);
  for (let hop = 0; ; hop++) {
    // A literal IP in the URL skips DNS: check it here.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(host) && !allow(host)) throw new ImageSourceError(`Refusing to fetch from ${host}: not a public address`, 400);
    const res = await getOnce(url, { lookup: guardedLookup(allow), deadline, maxBytes });
    if (res.redirect) {
      if (hop >= MAX_REDIRECTS) throw new ImageSourceError("The image URL redirects too many times", 422);
      url = parseHttpUrl(new URL(res.redirect, url).href);
      continue;
    }
    return { bytes: res.bytes!, contentType: res.contentType ?? "", finalUrl: url.href };
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImageSourceError("The image URL is not a valid URL", 400);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ImageSourceError("The image URL must be an http(s) URL", 400);
  if (url.username || url.password) throw new ImageSourceError("The image URL must not contain credentials", 400);
  return url;
}

function getOnce(url: URL, o: { lookup: net.LookupFunction; deadline: number; maxBytes: number }): Promise<{ redirect?: string; bytes?: Uint8Array; contentType?: string }> {
  return new Promise((resolve, reject) => {
    const remaining = o.deadline - Date.now();
    if (remaining <= 0) return reject(new ImageSourceError("The image could not be fetched in time", 422));
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.get(url, { lookup: o.lookup, headers: { accept: "image/*", "user-agent": "FashionDiscovery-ImageFetch/1.0" }, timeout: remaining }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return reject(new ImageSourceError(`The image URL answered HTTP ${status}`, 422));
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > o.maxBytes) {
        res.destroy();
        return reject(new ImageSourceError(`The image is larger than ${Math.round(o.maxBytes / 1024 / 1024)} MB`, 413));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) {
          res.destroy();
          reject(new ImageSourceError(`The image is larger than ${Math.round(o.maxBytes / 1024 / 1024)} MB`, 413));
          return;
        }
        chunks.push(c);
      });
      res.on("end", () => resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), contentType: String(res.headers["content-type"] ?? "") }));
      res.on("error", (e) => reject(new ImageSourceError(`The image download failed: ${e.message}`, 422)));
    });
    const timer = setTimeout(() => req.destroy(new Error("deadline")), remaining);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy(new Error("deadline")));
    req.on("error", (e: Error & { code?: string }) => {
      if (e.code === "EPRIVATE") return reject(new ImageSourceError(e.message, 400));
      if (e.message === "deadline") return reject(new ImageSourceError("The image could not be fetched in time", 422));
      reject(new ImageSourceError(`The image URL could not be reached: ${e.code ?? e.message}`, 422));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Our storage or the web

/** The storage key of one of our own file URLs (`/uploads/images/x.jpg` → `images/x.jpg`), else null. */
export function ownStorageKey(ctx: ImageSourceContext, raw: string): string | null {
  const v = raw.trim();
  let pathname: string | null = null;
  if (v.startsWith("/")) pathname = v;
  else {
    try {
      const u = new URL(v);
      const own = [ctx.config.APP_URL, ctx.config.SHOPIFY_APP_URL].filter(Boolean).map((o) => new URL(o!).origin);
      if (own.includes(u.origin)) pathname = u.pathname;
    } catch {
      return null;
    }
  }
  if (!pathname) return null;
  const prefix = new URL(ctx.storage.publicUrl("x"), "http://local").pathname.replace(/x$/, "");
  if (!pathname.startsWith(prefix)) return null;
  const key = decodeURIComponent(pathname.slice(prefix.length).split("?")[0]);
  return key && !key.includes("..") ? key : null;
}

/**
 * The bytes of an image URL: our storage (read locally) or a public http(s) address. Throws
 * ImageSourceError (a relative path that is not ours: 400; missing file: 404).
 */
export async function readImageUrl(ctx: ImageSourceContext, raw: string, policy: FetchPolicy = {}): Promise<Uint8Array> {
  const key = ownStorageKey(ctx, raw);
  if (key) {
    let bytes: Uint8Array | null;
    try {
      bytes = await ctx.storage.get(key);
    } catch {
      bytes = null;
    }
    if (!bytes) throw new ImageSourceError("The image was not found in our storage", 404);
    if (bytes.byteLength > (policy.maxBytes ?? IMAGE_FETCH_MAX_BYTES)) throw new ImageSourceError("The image is larger than allowed", 413);
    return bytes;
  }
  if (raw.trim().startsWith("/")) throw new ImageSourceError("A relative image URL must point to our uploads (/uploads/…)", 400);
  return (await fetchPublicImage(raw.trim(), policy)).bytes;
}

/** ImageSourceError → the DomainError of its status (answered with that status and message); anything else as it is. */
export function toDomainImageError(e: unknown): never {
  if (e instanceof ImageSourceError) throw domainErrorOfStatus(e.status, e.message);
  throw e;
}
