/** Image-AI configuration: IMAGE_AI_ADAPTER + IMAGE_AI_ROUTES → a provider per operation; bad values fail at start-up. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../app/config.server";
import { createLogger } from "../../app/lib/logger.server";
import { createImageAi, imageAiRoutes } from "../../app/providers/image-ai/index.server";
import { createLocalStorage } from "../../app/providers/storage.server";
import { IMAGE_AI_OPERATIONS, LOCAL_OPERATIONS } from "../../app/providers/image-ai/port";

const deps = { storage: createLocalStorage("/tmp/fd-image-ai-config-test"), log: createLogger("silent"), dataDir: "/tmp/fd-image-ai-config-test" };
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
};

describe("image-AI configuration", () => {
  it("defaults: every operation on the local provider, no routes, a webhook secret derived from APP_SECRET", () => {
    const c = loadConfig({});
    expect(c.IMAGE_AI_ADAPTER).toBe("local");
    expect(c.IMAGE_AI_ROUTES).toEqual({});
    expect(c.FAL_BASE_URL).toBeUndefined();
    expect(c.FAL_WEBHOOK_SECRET).toMatch(/^[0-9a-f]{64}$/);
    const other = loadConfig({ APP_SECRET: "x".repeat(40) });
    expect(other.FAL_WEBHOOK_SECRET).not.toBe(c.FAL_WEBHOOK_SECRET);
    expect(loadConfig({ FAL_WEBHOOK_SECRET: "given" }).FAL_WEBHOOK_SECRET).toBe("given");

    const ai = createImageAi(c, deps);
    expect(Object.keys(ai.providers)).toEqual(["local"]);
    for (const op of IMAGE_AI_OPERATIONS) {
      expect(ai.providerFor(op).name).toBe("local");
      expect(ai.providerFor(op).supports(op)).toBe(LOCAL_OPERATIONS.has(op));
    }
  });

  it("IMAGE_AI_ROUTES sends single operations to another provider", () => {
    const c = loadConfig({ IMAGE_AI_ROUTES: " vton-flux=fal , chrono-edit=fal", FAL_KEY: "key:secret" });
    expect(c.IMAGE_AI_ROUTES).toEqual({ "vton-flux": "fal", "chrono-edit": "fal" });
    const ai = createImageAi(c, deps);
    expect(Object.keys(ai.providers).sort()).toEqual(["fal", "local"]);
    expect(ai.providerFor("vton-flux").name).toBe("fal");
    expect(ai.providerFor("chrono-edit").supports("chrono-edit")).toBe(true);
    expect(ai.providerFor("flux-profile-image").name).toBe("local");

    const allFal = loadConfig({ IMAGE_AI_ADAPTER: "fal", FAL_KEY: "k", IMAGE_AI_ROUTES: "flux-profile-image=local" });
    expect(imageAiRoutes(allFal)["flux-profile-image"]).toBe("local");
    expect(imageAiRoutes(allFal)["vton-flux"]).toBe("fal");
  });

  it("refuses unknown operations, unknown providers, malformed entries, and fal without FAL_KEY", () => {
    expect(problems({ IMAGE_AI_ROUTES: "vton=fal" }).join("\n")).toMatch(/IMAGE_AI_ROUTES: unknown operation "vton"/);
    expect(problems({ IMAGE_AI_ROUTES: "vton-flux=gpu" }).join("\n")).toMatch(/IMAGE_AI_ROUTES: unknown provider "gpu" for vton-flux/);
    expect(problems({ IMAGE_AI_ROUTES: "vton-flux" }).join("\n")).toMatch(/not operation=provider/);
    expect(problems({ IMAGE_AI_ROUTES: "vton-flux=fal" }).join("\n")).toMatch(/FAL_KEY is required when IMAGE_AI_ROUTES sends vton-flux to fal/);
    expect(problems({ IMAGE_AI_ADAPTER: "fal" }).join("\n")).toMatch(/FAL_KEY is required when IMAGE_AI_ADAPTER=fal/);
    expect(problems({ IMAGE_AI_ROUTES: "vton-flux=local" })).toEqual([]);
    expect(problems({ FAL_BASE_URL: "queue.fal.run" }).join("\n")).toMatch(/FAL_BASE_URL must be an http\(s\) URL/);
  });
});
