/**
 * The local Storefront API endpoint when its schema cannot be loaded: 503 with a sentence, not the
 * loader's error (which names a file under node_modules by its absolute path).
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../../app/storefront-api/schema.server", () => ({
  getStorefrontSchema: () => {
    throw new Error(`ENOENT: no such file or directory, open '${process.cwd()}/node_modules/@shopify/hydrogen-react/storefront.schema.json'`);
  },
}));

describe("POST /api/storefront/graphql without its schema", () => {
  it("answers 503 without the path of the missing file", async () => {
    const { handleStorefrontGraphQL } = await import("../../app/storefront-api/local-endpoint.server");
    const request = new Request("http://localhost/api/storefront/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ shop { name } }" }) });
    const res = await handleStorefrontGraphQL(request, { db: {} as never });
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain("node_modules");
    expect(JSON.parse(text).errors[0]).toMatchObject({ message: "The Storefront API schema is not available", extensions: { code: "SERVICE_UNAVAILABLE" } });
  });
});
