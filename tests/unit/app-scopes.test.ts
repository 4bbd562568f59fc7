import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_SCOPES } from "~/lib/app-scopes";

describe("access scopes", () => {
  it("are the ones shopify.app.toml declares, so the CLI and the running app ask for the same", () => {
    const toml = fs.readFileSync(path.resolve(__dirname, "../../shopify.app.toml"), "utf8");
    const line = toml.split("\n").find((l) => l.trim().startsWith("scopes ="));
    expect(line).toBeDefined();
    const declared = line!.split("=")[1]!.trim().replace(/^"|"$/g, "").split(",").map((s) => s.trim());
    expect([...declared].sort()).toEqual([...APP_SCOPES].sort());
  });

  it("include the Storefront scopes the cart needs (quantities and checkout)", () => {
    expect(APP_SCOPES).toEqual(expect.arrayContaining(["unauthenticated_read_product_inventory", "unauthenticated_write_checkouts", "unauthenticated_read_checkouts"]));
  });
});
