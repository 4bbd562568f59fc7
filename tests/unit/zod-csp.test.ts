// @vitest-environment node
import { describe, expect, it, vi } from "vitest";

describe("storefront zod configuration (CSP without unsafe-eval)", () => {
  it("puts zod in jitless mode before zod loads, so it never probes new Function", async () => {
    vi.resetModules();
    const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
    const saved = holder.__zod_globalConfig;
    delete holder.__zod_globalConfig;
    try {
      await import("../../storefront/src/lib/zod-csp");
      const { z } = await import("zod");
      expect(z.config().jitless).toBe(true);
      const probe = vi.spyOn(globalThis, "Function");
      expect(z.object({ a: z.string() }).parse({ a: "x" })).toEqual({ a: "x" });
      expect(probe).not.toHaveBeenCalled();
      probe.mockRestore();
    } finally {
      if (saved) holder.__zod_globalConfig = saved;
      else delete holder.__zod_globalConfig;
    }
  });
});
