import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, getConfig, loadConfig, resetConfigCache } from "../../app/config.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";

const PROD = {
  APP_MODE: "production",
  DATABASE_URL: "postgresql://u:p@db.example.com/app",
  APP_SECRET: "s".repeat(32),
  APP_URL: "https://shop.example.com",
  SHOPIFY_API_SECRET: "shpss_0123456789abcdef",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("needs nothing in local mode and fills the defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      APP_MODE: "local",
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      WORKER: "inline",
      COMMERCE_ADAPTER: "local",
      STORAGE_ADAPTER: "local",
      IMAGE_AI_ADAPTER: "local",
      VECTOR_INDEX: "auto",
      EMAIL_ADAPTER: "outbox",
      LLM_ADAPTER: "local",
      TAOBAO_ADAPTER: "local",
    });
    expect(c.DATA_DIR).toBe(path.resolve(".data"));
    expect(path.isAbsolute(c.DATA_DIR)).toBe(true);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it("parses PORT and resolves DATA_DIR", () => {
    const c = loadConfig({ PORT: "8080", DATA_DIR: "some/dir" });
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe(path.resolve("some/dir"));
    expect(problemsOf({ PORT: "eighty" })[0]).toMatch(/^PORT: /);
    expect(problemsOf({ PORT: "70000" })[0]).toMatch(/^PORT: /);
    expect(problemsOf({ PORT: "80.5" })[0]).toMatch(/^PORT: /);
  });

  it("treats empty and blank values as unset", () => {
    const c = loadConfig({ DATABASE_URL: "", APP_URL: "   ", SHOPIFY_API_KEY: "" });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.APP_URL).toBeUndefined();
    expect(c.SHOPIFY_API_KEY).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: " postgresql://x/y " }).DATABASE_URL).toBe("postgresql://x/y");
  });

  it("production mode needs DATABASE_URL, APP_SECRET, APP_URL and SHOPIFY_API_SECRET, all reported at once", () => {
    const problems = problemsOf({ APP_MODE: "production" });
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toContain("DATABASE_URL is required in production mode");
    expect(problems.join("\n")).toContain("APP_SECRET is required in production mode");
    expect(problems.join("\n")).toContain("APP_URL is required in production mode");
    expect(problems.join("\n")).toContain("SHOPIFY_API_SECRET is required in production mode");

    let error: unknown;
    try {
      loadConfig({ APP_MODE: "production", DATABASE_URL: "" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Invalid configuration:/);
    for (const k of ["DATABASE_URL", "APP_SECRET", "APP_URL"]) expect((error as Error).message).toContain(`  - ${k}: `);

    expect(loadConfig(PROD).APP_MODE).toBe("production");
  });

  it("production mode refuses to start without a real SHOPIFY_API_SECRET, whatever the commerce adapter", () => {
    const { SHOPIFY_API_SECRET: _omit, ...withoutSecret } = PROD;
    for (const COMMERCE_ADAPTER of ["local", "shopify"]) {
      const shopify: Record<string, string> = COMMERCE_ADAPTER === "shopify" ? { SHOPIFY_API_KEY: "k", SHOPIFY_APP_URL: "https://app.example.com", SHOPIFY_SHOP: "x.myshopify.com" } : {};
      expect(problemsOf({ ...withoutSecret, ...shopify, COMMERCE_ADAPTER }).join("\n")).toContain("SHOPIFY_API_SECRET is required");
      expect(problemsOf({ ...PROD, ...shopify, COMMERCE_ADAPTER, SHOPIFY_API_SECRET: "local-mode-secret" })).toEqual([
        "SHOPIFY_API_SECRET: SHOPIFY_API_SECRET is a public placeholder value: set a secret of your own",
      ]);
    }
    expect(loadConfig(PROD).SHOPIFY_API_SECRET).toBe(PROD.SHOPIFY_API_SECRET);
  });

  it("refuses the public placeholder values as secrets in any mode, and a short DATA_SERVICE_API_KEY", () => {
    expect(problemsOf({ APP_SECRET: "fashion-discovery-local-review-links" })[0]).toMatch(/^APP_SECRET: APP_SECRET is a public placeholder/);
    expect(problemsOf({ SHOPIFY_API_SECRET: "local-mode-secret" })[0]).toMatch(/^SHOPIFY_API_SECRET: .*public placeholder/);
    expect(problemsOf({ FAL_WEBHOOK_SECRET: "fashion-discovery-local-secret" })[0]).toMatch(/^FAL_WEBHOOK_SECRET: /);
    expect(problemsOf({ DATA_SERVICE_API_KEY: "short" })).toEqual(["DATA_SERVICE_API_KEY: DATA_SERVICE_API_KEY must be at least 24 characters"]);
  });

  it("local mode without secrets: one random secret per DATA_DIR, generated on first use and kept", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-config-secrets-"));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "fd-config-secrets-"));
    try {
      const c = loadConfig({ DATA_DIR: dir });
      // Parsing alone writes nothing.
      expect(fs.existsSync(path.join(dir, "secrets"))).toBe(false);
      const shopify = c.SHOPIFY_API_SECRET;
      const app = c.APP_SECRET;
      for (const s of [shopify, app]) {
        expect(s.length).toBeGreaterThanOrEqual(32);
        expect(["local-mode-secret", "fashion-discovery-local-secret", "fashion-discovery-local-review-links"]).not.toContain(s);
      }
      expect(shopify).not.toBe(app);
      expect(c.FAL_WEBHOOK_SECRET).toMatch(/^[0-9a-f]{64}$/);
      // Kept in DATA_DIR, private to the owner; a later start (another process) reads the same values.
      expect(fs.readFileSync(path.join(dir, "secrets", "shopify-api-secret"), "utf8")).toBe(shopify);
      if (process.platform !== "win32") expect(fs.statSync(path.join(dir, "secrets", "shopify-api-secret")).mode & 0o077).toBe(0);
      const again = loadConfig({ DATA_DIR: dir });
      expect([again.SHOPIFY_API_SECRET, again.APP_SECRET]).toEqual([shopify, app]);
      // Another installation gets its own.
      expect(loadConfig({ DATA_DIR: other }).SHOPIFY_API_SECRET).not.toBe(shopify);
      // Configured values win and nothing is generated for them.
      const configured = loadConfig({ DATA_DIR: other, SHOPIFY_API_SECRET: "configured-secret", APP_SECRET: "a".repeat(32) });
      expect([configured.SHOPIFY_API_SECRET, configured.APP_SECRET]).toEqual(["configured-secret", "a".repeat(32)]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("TRUST_PROXY: nothing trusted by default, a number of hops or a list of addresses/CIDRs; true is refused", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...PROD }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8 ,fd00::/8,203.0.113.7" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8", "fd00::/8", "203.0.113.7"]);
    expect(problemsOf({ TRUST_PROXY: "true" })[0]).toMatch(/^TRUST_PROXY: TRUST_PROXY=true would believe any X-Forwarded-For/);
    expect(problemsOf({ TRUST_PROXY: "10.0.0.0/33" })[0]).toMatch(/^TRUST_PROXY: /);
    expect(problemsOf({ TRUST_PROXY: "proxy.example.com" })[0]).toMatch(/^TRUST_PROXY: /);
    expect(problemsOf({ TRUST_PROXY: "99" })[0]).toMatch(/^TRUST_PROXY: /);
  });

  it("rejects a short APP_SECRET in any mode", () => {
    expect(problemsOf({ ...PROD, APP_SECRET: "too-short" })).toEqual(["APP_SECRET: APP_SECRET must be at least 32 characters"]);
    expect(problemsOf({ APP_SECRET: "x".repeat(31) })).toHaveLength(1);
    expect(loadConfig({ APP_SECRET: "x".repeat(32) }).APP_SECRET).toHaveLength(32);
  });

  it("COMMERCE_ADAPTER=shopify needs the Shopify keys", () => {
    const problems = problemsOf({ COMMERCE_ADAPTER: "shopify" });
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual(["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SHOPIFY_SHOP"]);
    for (const p of problems) expect(p).toContain("when COMMERCE_ADAPTER=shopify");

    const c = loadConfig({
      COMMERCE_ADAPTER: "shopify",
      SHOPIFY_API_KEY: "key",
      SHOPIFY_API_SECRET: "secret",
      SHOPIFY_APP_URL: "https://app.example.com",
      SHOPIFY_SHOP: "demo.myshopify.com",
    });
    expect(c.COMMERCE_ADAPTER).toBe("shopify");
  });

  it("every adapter's required settings are checked, and problems from several areas add up", () => {
    const problems = problemsOf({ ...PROD, APP_SECRET: "", STORAGE_ADAPTER: "s3", IMAGE_AI_ADAPTER: "fal", EMAIL_ADAPTER: "smtp", LLM_ADAPTER: "openai" });
    const keys = problems.map((p) => p.split(":")[0]).sort();
    expect(keys).toEqual(["APP_SECRET", "FAL_KEY", "OPENAI_API_KEY", "S3_ACCESS_KEY_ID", "S3_BUCKET", "S3_REGION", "S3_SECRET_ACCESS_KEY", "SMTP_URL"]);
    expect(problemsOf({ VECTOR_INDEX: "pinecone" }).map((p) => p.split(":")[0]).sort()).toEqual(["PINECONE_API_KEY", "PINECONE_INDEX_HOST"]);
    expect(problemsOf({ VECTOR_INDEX: "pinecone" })[0]).toContain("when VECTOR_INDEX=pinecone");
    // The former variable name still works.
    expect(problemsOf({ VECTOR_ADAPTER: "pinecone" }).map((p) => p.split(":")[0]).sort()).toEqual(["PINECONE_API_KEY", "PINECONE_INDEX_HOST"]);
    expect(loadConfig({ VECTOR_ADAPTER: "pgvector" }).VECTOR_INDEX).toBe("pgvector");
    expect(loadConfig({ VECTOR_INDEX: "exact", VECTOR_ADAPTER: "pgvector" }).VECTOR_INDEX).toBe("exact");
    expect(problemsOf({ VECTOR_INDEX: "faiss" })[0]).toMatch(/^VECTOR_INDEX: /);
    expect(problemsOf({ VECTOR_INDEX: "pinecone", PINECONE_API_KEY: "k", PINECONE_INDEX_HOST: "https://x.pinecone.io/some/path?q" })[0]).toMatch(/^PINECONE_INDEX_HOST: /);
    expect(loadConfig({ VECTOR_INDEX: "pinecone", PINECONE_API_KEY: "k", PINECONE_INDEX_HOST: "products-abc.svc.aped-4627-b74a.pinecone.io" }).VECTOR_INDEX).toBe("pinecone");
    expect(problemsOf({ TAOBAO_ADAPTER: "http", TAOBAO_API_KEY: "k" })).toEqual(["TAOBAO_API_URL: TAOBAO_API_URL is required when TAOBAO_ADAPTER=http"]);
  });

  it("LANGUAGE_MODEL=openai needs OPENAI_API_KEY (the former name LLM_ADAPTER still works)", () => {
    expect(loadConfig({}).LANGUAGE_MODEL).toBe("local");
    expect(problemsOf({ LANGUAGE_MODEL: "openai" })).toEqual(["OPENAI_API_KEY: OPENAI_API_KEY is required when LANGUAGE_MODEL=openai"]);
    expect(problemsOf({ ...PROD, LANGUAGE_MODEL: "openai" })).toEqual(["OPENAI_API_KEY: OPENAI_API_KEY is required when LANGUAGE_MODEL=openai"]);
    expect(problemsOf({ LLM_ADAPTER: "openai" }).map((p) => p.split(":")[0])).toEqual(["OPENAI_API_KEY"]);
    const c = loadConfig({ LANGUAGE_MODEL: "openai", OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_MODEL: "m" });
    expect(c).toMatchObject({ LANGUAGE_MODEL: "openai", LLM_ADAPTER: "openai", OPENAI_TIMEOUT_MS: 20_000 });
    expect(loadConfig({ LLM_ADAPTER: "openai", OPENAI_API_KEY: "k" }).LANGUAGE_MODEL).toBe("openai");
    expect(loadConfig({ LANGUAGE_MODEL: "local", LLM_ADAPTER: "openai", OPENAI_API_KEY: "k" }).LANGUAGE_MODEL).toBe("local");
    expect(problemsOf({ LANGUAGE_MODEL: "openai", OPENAI_API_KEY: "k", OPENAI_BASE_URL: "api.openai.com" })[0]).toMatch(/^OPENAI_BASE_URL: /);
    expect(problemsOf({ LANGUAGE_MODEL: "gpt" })[0]).toMatch(/^LANGUAGE_MODEL: /);
    expect(problemsOf({ OPENAI_TIMEOUT_MS: "10" })[0]).toMatch(/^OPENAI_TIMEOUT_MS: /);
  });

  it("rejects unknown enum values", () => {
    expect(problemsOf({ APP_MODE: "staging" })[0]).toMatch(/^APP_MODE: /);
    expect(problemsOf({ STORAGE_ADAPTER: "ftp" })[0]).toMatch(/^STORAGE_ADAPTER: /);
    expect(problemsOf({ LOG_LEVEL: "loud" })[0]).toMatch(/^LOG_LEVEL: /);
  });
});

describe("getConfig", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigCache();
  });

  it("reads process.env once, until the cache is reset", () => {
    vi.stubEnv("PORT", "4123");
    resetConfigCache();
    expect(getConfig().PORT).toBe(4123);
    vi.stubEnv("PORT", "4124");
    expect(getConfig().PORT).toBe(4123);
    resetConfigCache();
    expect(getConfig().PORT).toBe(4124);
  });
});

describe("pgConfigFromUrl", () => {
  it("reads host, port, credentials and database", () => {
    expect(pgConfigFromUrl("postgresql://ann:s%40cret@db.example.com:6543/shop%20db")).toEqual({
      host: "db.example.com",
      port: 6543,
      user: "ann",
      password: "s@cret",
      database: "shop db",
      ssl: undefined,
    });
  });

  it("defaults the port, user and database", () => {
    expect(pgConfigFromUrl("postgresql://localhost")).toMatchObject({ host: "localhost", port: 5432, user: "postgres", password: undefined, database: "postgres" });
  });

  it("takes a unix socket directory from ?host= and ssl from sslmode", () => {
    expect(pgConfigFromUrl(`postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent("/tmp/fdpg-1")}&sslmode=disable`)).toMatchObject({
      host: "/tmp/fdpg-1",
      ssl: undefined,
    });
    expect(pgConfigFromUrl("postgresql://u@h/d?sslmode=require").ssl).toBe(true);
    expect(pgConfigFromUrl("postgresql://u@h/d?sslmode=verify-full").ssl).toBe(true);
  });
});
