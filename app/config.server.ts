/**
 * Process configuration, validated once at start-up. A bad configuration fails fast with every
 * problem listed, instead of failing later on the first request that needs the missing value.
 *
 * Two modes share the same code (DESIGN.md): `local` (the embedded default: PGlite, local
 * adapters, demo accounts) and `production` (external services, no demo accounts).
 */
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import { z } from "zod";
import { localSecret } from "./lib/local-secrets.server";
import { FAL_JWKS_URL } from "./providers/image-ai/fal-webhook";
import { IMAGE_AI_OPERATIONS, type ImageAiOperation } from "./providers/image-ai/port";
import { DEFAULT_STORE_TIME_ZONE, TimeZoneName } from "./lib/store-time-zone";

/** IMAGE_AI_ROUTES: "vton-flux=fal,flux-profile-image=local" → per-operation provider overrides. */
const ImageAiRoutes = z
  .string()
  .trim()
  .optional()
  .transform((raw, ctx) => {
    const routes: Partial<Record<ImageAiOperation, "local" | "fal">> = {};
    for (const part of (raw ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
      const [op, provider, extra] = part.split("=").map((p) => p.trim());
      if (extra !== undefined || !op || !provider) {
        ctx.addIssue({ code: "custom", message: `"${part}" is not operation=provider (e.g. vton-flux=fal)` });
      } else if (!(IMAGE_AI_OPERATIONS as readonly string[]).includes(op)) {
        ctx.addIssue({ code: "custom", message: `unknown operation "${op}" (one of ${IMAGE_AI_OPERATIONS.join(", ")})` });
      } else if (provider !== "local" && provider !== "fal") {
        ctx.addIssue({ code: "custom", message: `unknown provider "${provider}" for ${op} (local or fal)` });
      } else routes[op as ImageAiOperation] = provider;
    }
    return routes;
  });

/**
 * Placeholder secrets this code base once fell back to: public, so never accepted as a real one.
 */
const PUBLIC_SECRETS = new Set(["local-mode-secret", "local-mode", "fashion-discovery-local-secret", "fashion-discovery-local-review-links"]);

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: which X-Forwarded-For hops Express may believe (its `trust proxy` setting).
 * Unset/"false"/"0" → none (req.ip is the socket's peer); a number → that many proxy hops;
 * a comma-separated list of addresses, CIDRs or loopback/linklocal/uniquelocal → those proxies.
 * "true" is refused: it believes any client-sent X-Forwarded-For, so rate limits per address hold nothing.
 */
const TrustProxy = z
  .string()
  .trim()
  .optional()
  .transform((raw, ctx): false | number | string[] => {
    const v = (raw ?? "").toLowerCase();
    if (v === "" || v === "false" || v === "0") return false;
    if (v === "true") {
      ctx.addIssue({ code: "custom", message: "TRUST_PROXY=true would believe any X-Forwarded-For a client sends: give the number of proxy hops (e.g. 1) or the proxies' addresses/CIDRs" });
      return false;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops > 10) ctx.addIssue({ code: "custom", message: "TRUST_PROXY: at most 10 proxy hops" });
      return hops;
    }
    const list = v.split(",").map((p) => p.trim()).filter(Boolean);
    for (const item of list) {
      const [address, prefix, extra] = item.split("/");
      const family = net.isIP(address);
      const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
      if (!PROXY_NAMES.has(item) && (extra !== undefined || family === 0 || !prefixOk)) {
        ctx.addIssue({ code: "custom", message: `TRUST_PROXY: "${item}" is not a number of hops, an IP address, a CIDR or loopback/linklocal/uniquelocal` });
      }
    }
    return list;
  });

const adapter = <T extends [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.enum(values).default(fallback as never);

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

export const ConfigSchema = z
  .object({
    APP_MODE: z.enum(["local", "production"]).default("local"),
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("127.0.0.1"),
    DATA_DIR: z.string().default(".data"),
    DATABASE_URL: optionalString,
    APP_URL: optionalString,
    APP_SECRET: optionalString,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    WORKER: z.enum(["inline", "off"]).default("inline"),
    /** How long a worker holds a job without renewing it: a job whose worker died is taken up again after this. */
    JOB_LEASE_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
    // Shopify
    SHOPIFY_API_KEY: optionalString,
    SHOPIFY_API_SECRET: optionalString,
    SHOPIFY_APP_URL: optionalString,
    SHOPIFY_SHOP: optionalString,
    SCOPES: optionalString,
    SHOPIFY_STOREFRONT_ACCESS_TOKEN: optionalString,
    /** Optional Admin API token (custom app); without it the shop's offline session is used. */
    SHOPIFY_ADMIN_ACCESS_TOKEN: optionalString,
    // Adapters (one per port)
    COMMERCE_ADAPTER: adapter(["local", "shopify"], "local"),
    STORAGE_ADAPTER: adapter(["local", "s3"], "local"),
    IMAGE_AI_ADAPTER: adapter(["local", "fal"], "local"),
    /** Per-operation image-AI provider overrides: "vton-flux=fal,flux-profile-image=local". */
    IMAGE_AI_ROUTES: ImageAiRoutes,
    /** auto: pgvector when the database has the extension (PGlite does), else an exact scan. */
    VECTOR_INDEX: z.enum(["auto", "pgvector", "exact", "pinecone"]).optional(),
    /** Former name of VECTOR_INDEX, still read when VECTOR_INDEX is not set. */
    VECTOR_ADAPTER: z.enum(["pgvector", "pinecone"]).optional(),
    EMAIL_ADAPTER: adapter(["outbox", "smtp"], "outbox"),
    /** The language model (assistant, NLU, collection names): `local` (deterministic) or `openai` (any OpenAI-compatible API). */
    LANGUAGE_MODEL: z.enum(["local", "openai"]).optional(),
    /** Former name of LANGUAGE_MODEL, still read when LANGUAGE_MODEL is not set. */
    LLM_ADAPTER: z.enum(["local", "openai"]).optional(),
    TAOBAO_ADAPTER: adapter(["local", "http"], "local"),
    /** Where LIVE product ads run and their delivery is read (docs/product-ads.md): `local` (simulated) or `meta`. */
    ADS_PLATFORM: adapter(["local", "meta"], "local"),
    // Adapter settings
    S3_BUCKET: optionalString,
    S3_REGION: optionalString,
    S3_ENDPOINT: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_PUBLIC_URL: optionalString,
    FAL_KEY: optionalString,
    /** fal's queue API origin (default https://queue.fal.run; tests point it at a local fake). */
    FAL_BASE_URL: optionalString,
    /** Signs the webhook URLs given to fal (default: derived from APP_SECRET). */
    FAL_WEBHOOK_SECRET: optionalString,
    /** fal's public webhook keys (ED25519 JWKS), fetched and cached 24 h when signatures are checked. */
    FAL_WEBHOOK_JWKS_URL: z.string().trim().default(FAL_JWKS_URL),
    /** fal's X-Fal-Webhook-* signature on webhooks, besides the URL token: auto = on in production mode. */
    FAL_WEBHOOK_VERIFY_SIGNATURE: z.enum(["auto", "on", "off"]).default("auto"),
    PINECONE_API_KEY: optionalString,
    PINECONE_INDEX_HOST: optionalString,
    SMTP_URL: optionalString,
    EMAIL_FROM: z.string().default("Fashion Discovery <no-reply@fashion.local>"),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalString,
    OPENAI_MODEL: optionalString,
    /** Deadline of one chat-completions request (one retry on 429 / 5xx). */
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
    TAOBAO_API_URL: optionalString,
    TAOBAO_API_KEY: optionalString,
    /** Taobao import (README, "Taobao import"): the HTTP item API's deadline, retries within a call, and requests per second. */
    TAOBAO_API_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
    TAOBAO_API_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    TAOBAO_API_RATE_LIMIT: z.coerce.number().positive().max(1000).default(5),
    /** Store currency per 1 CNY, and the pricing rule: price = CNY × rate × markup + add, then the ending (".99", ".95", ".00" or "none"). */
    TAOBAO_CNY_RATE: z.coerce.number().positive().max(1000).default(0.14),
    TAOBAO_PRICE_MARKUP: z.coerce.number().min(0.1).max(100).default(2.5),
    TAOBAO_PRICE_ADD: z.coerce.number().min(0).max(100_000).default(0),
    TAOBAO_PRICE_ENDING: z.string().trim().regex(/^(none|0?\.\d{2})$/, 'TAOBAO_PRICE_ENDING must be "none" or cents such as ".99"').default(".99"),
    /** Imported products: `active` (published at once) or `draft` (companion pending review). */
    TAOBAO_IMPORT_STATUS: z.enum(["active", "draft"]).default("active"),
    /** Runs of an import job before a transient failure (source down, image timeouts) is final. */
    TAOBAO_IMPORT_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
    /** Meta Marketing API (ADS_PLATFORM=meta): a system user's token with ads_management, the ad account (act_…) and the Facebook page the ads speak as. */
    META_ACCESS_TOKEN: optionalString,
    META_AD_ACCOUNT_ID: optionalString,
    META_PAGE_ID: optionalString,
    META_API_VERSION: z.string().trim().regex(/^v\d+\.\d+$/, 'META_API_VERSION must look like "v23.0"').default("v23.0"),
    /** The Graph API origin (tests point it at a local fake). */
    META_GRAPH_URL: z.string().trim().default("https://graph.facebook.com"),
    /** With a Meta pixel on the storefront, ad sets optimise for purchases; without one, for link clicks. */
    META_PIXEL_ID: optionalString,
    /** Countries the ad sets target (ISO codes, comma-separated). */
    META_TARGET_COUNTRIES: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}(\s*,\s*[A-Z]{2})*$/, 'META_TARGET_COUNTRIES must be ISO country codes such as "US,CA"')
      .default("US")
      .transform((v) => v.split(",").map((c) => c.trim())),
    DATA_SERVICE_API_KEY: optionalString,
    /** Which proxies' X-Forwarded-For to believe for the client address (see TrustProxy). */
    TRUST_PROXY: TrustProxy,
    /** The store's time zone (IANA name): reports count calendar days in it (app/lib/store-time-zone.ts). */
    STORE_TIMEZONE: TimeZoneName.default(DEFAULT_STORE_TIME_ZONE),
  })
  .superRefine((c, ctx) => {
    const need = (cond: boolean, keys: (keyof typeof c)[], why: string) => {
      if (!cond) return;
      for (const k of keys) {
        if (!c[k]) ctx.addIssue({ code: "custom", path: [k], message: `${k} is required ${why}` });
      }
    };
    // SHOPIFY_API_SECRET whatever the commerce adapter: webhooks and the App Proxy are verified with it.
    need(c.APP_MODE === "production", ["DATABASE_URL", "APP_SECRET", "APP_URL", "SHOPIFY_API_SECRET"], "in production mode");
    for (const k of ["APP_SECRET", "SHOPIFY_API_SECRET", "FAL_WEBHOOK_SECRET", "DATA_SERVICE_API_KEY"] as const) {
      const v = c[k];
      if (v && PUBLIC_SECRETS.has(v)) ctx.addIssue({ code: "custom", path: [k], message: `${k} is a public placeholder value: set a secret of your own` });
    }
    if (c.DATA_SERVICE_API_KEY && c.DATA_SERVICE_API_KEY.length < 24) {
      ctx.addIssue({ code: "custom", path: ["DATA_SERVICE_API_KEY"], message: "DATA_SERVICE_API_KEY must be at least 24 characters" });
    }
    need(c.COMMERCE_ADAPTER === "shopify", ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SHOPIFY_SHOP"], "when COMMERCE_ADAPTER=shopify");
    need(c.STORAGE_ADAPTER === "s3", ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"], "when STORAGE_ADAPTER=s3");
    need(c.IMAGE_AI_ADAPTER === "fal", ["FAL_KEY"], "when IMAGE_AI_ADAPTER=fal");
    const falRoutes = Object.entries(c.IMAGE_AI_ROUTES ?? {}).filter(([, p]) => p === "fal").map(([op]) => op);
    if (c.IMAGE_AI_ADAPTER !== "fal" && falRoutes.length > 0) need(true, ["FAL_KEY"], `when IMAGE_AI_ROUTES sends ${falRoutes.join(", ")} to fal`);
    if (c.FAL_BASE_URL && !/^https?:\/\/[^\s/]+/i.test(c.FAL_BASE_URL)) {
      ctx.addIssue({ code: "custom", path: ["FAL_BASE_URL"], message: "FAL_BASE_URL must be an http(s) URL, e.g. https://queue.fal.run" });
    }
    if (!/^https?:\/\/[^\s/]+/i.test(c.FAL_WEBHOOK_JWKS_URL)) {
      ctx.addIssue({ code: "custom", path: ["FAL_WEBHOOK_JWKS_URL"], message: "FAL_WEBHOOK_JWKS_URL must be an http(s) URL, e.g. https://rest.fal.ai/.well-known/jwks.json" });
    }
    need((c.VECTOR_INDEX ?? c.VECTOR_ADAPTER) === "pinecone", ["PINECONE_API_KEY", "PINECONE_INDEX_HOST"], "when VECTOR_INDEX=pinecone");
    if (c.PINECONE_INDEX_HOST && !/^(https?:\/\/)?[a-z0-9.-]+(:\d+)?\/?$/i.test(c.PINECONE_INDEX_HOST)) {
      ctx.addIssue({ code: "custom", path: ["PINECONE_INDEX_HOST"], message: "PINECONE_INDEX_HOST must be the index host, e.g. https://products-abc123.svc.aped-4627-b74a.pinecone.io" });
    }
    need(c.EMAIL_ADAPTER === "smtp", ["SMTP_URL"], "when EMAIL_ADAPTER=smtp");
    need((c.LANGUAGE_MODEL ?? c.LLM_ADAPTER) === "openai", ["OPENAI_API_KEY"], "when LANGUAGE_MODEL=openai");
    if (c.OPENAI_BASE_URL && !/^https?:\/\/[^\s/]+/i.test(c.OPENAI_BASE_URL)) {
      ctx.addIssue({ code: "custom", path: ["OPENAI_BASE_URL"], message: "OPENAI_BASE_URL must be an http(s) URL, e.g. https://api.openai.com/v1" });
    }
    need(c.TAOBAO_ADAPTER === "http", ["TAOBAO_API_URL", "TAOBAO_API_KEY"], "when TAOBAO_ADAPTER=http");
    if (c.TAOBAO_API_URL && !/^https?:\/\/[^\s/]+/i.test(c.TAOBAO_API_URL)) {
      ctx.addIssue({ code: "custom", path: ["TAOBAO_API_URL"], message: "TAOBAO_API_URL must be an http(s) URL, e.g. https://api.example.com/taobao" });
    }
    need(c.ADS_PLATFORM === "meta", ["META_ACCESS_TOKEN", "META_AD_ACCOUNT_ID", "META_PAGE_ID"], "when ADS_PLATFORM=meta");
    if (c.META_AD_ACCOUNT_ID && !/^act_\d+$/.test(c.META_AD_ACCOUNT_ID)) {
      ctx.addIssue({ code: "custom", path: ["META_AD_ACCOUNT_ID"], message: "META_AD_ACCOUNT_ID must be the ad account id with its prefix, e.g. act_1234567890" });
    }
    if (!/^https?:\/\/[^\s/]+/i.test(c.META_GRAPH_URL)) {
      ctx.addIssue({ code: "custom", path: ["META_GRAPH_URL"], message: "META_GRAPH_URL must be an http(s) URL, e.g. https://graph.facebook.com" });
    }
    if (c.APP_SECRET && c.APP_SECRET.length < 32) {
      ctx.addIssue({ code: "custom", path: ["APP_SECRET"], message: "APP_SECRET must be at least 32 characters" });
    }
  })
  .transform(({ VECTOR_ADAPTER, APP_SECRET, SHOPIFY_API_SECRET, FAL_WEBHOOK_SECRET, ...c }) => {
    const languageModel = c.LANGUAGE_MODEL ?? c.LLM_ADAPTER ?? "local";
    const dataDir = path.resolve(c.DATA_DIR);
    const config = {
      ...c,
      VECTOR_INDEX: c.VECTOR_INDEX ?? VECTOR_ADAPTER ?? "auto",
      LANGUAGE_MODEL: languageModel,
      /** Same as LANGUAGE_MODEL (kept for code that reads the former name). */
      LLM_ADAPTER: languageModel,
      DATA_DIR: dataDir,
      IMAGE_AI_ROUTES: c.IMAGE_AI_ROUTES ?? {},
      /** Signing secret (review links, the fal webhook token): APP_SECRET, or in local mode one generated in DATA_DIR. */
      APP_SECRET: "",
      /** Webhook and App Proxy HMAC key: SHOPIFY_API_SECRET, or in local mode one generated in DATA_DIR. */
      SHOPIFY_API_SECRET: "",
      FAL_WEBHOOK_SECRET: "",
    };
    // Resolved on first read, so parsing a configuration never writes to DATA_DIR by itself.
    const secret = (configured: string | undefined, name: string) => () => {
      if (configured) return configured;
      // Unreachable through loadConfig (production requires both); kept so no path can invent one.
      if (c.APP_MODE === "production") throw new Error(`${name} is not configured (required in production mode)`);
      return localSecret(dataDir, name.toLowerCase().replace(/_/g, "-"));
    };
    const appSecret = secret(APP_SECRET, "APP_SECRET");
    lazy(config, "APP_SECRET", appSecret);
    lazy(config, "SHOPIFY_API_SECRET", secret(SHOPIFY_API_SECRET, "SHOPIFY_API_SECRET"));
    lazy(config, "FAL_WEBHOOK_SECRET", () => FAL_WEBHOOK_SECRET ?? crypto.createHmac("sha256", appSecret()).update("fal-webhook").digest("hex"));
    return config;
  });

/** Defines `key` as an enumerable property computed once, on first read. */
function lazy<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]) {
  let value: T[K] | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= compute()),
    set: (v: T[K]) => {
      value = v;
    },
  });
}

export type AppConfig = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`));
  }
  return parsed.data;
}

let cached: AppConfig | undefined;
export function getConfig(): AppConfig {
  cached ??= loadConfig();
  return cached;
}
/** Tests change the environment between suites. */
export function resetConfigCache() {
  cached = undefined;
}
