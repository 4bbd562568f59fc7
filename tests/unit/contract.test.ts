import { describe, expect, it } from "vitest";
import { z } from "zod";
import { endpointAreas, endpoints, mergeAreas } from "../../app/contract";
import { endpoint, access, type EndpointDef } from "../../app/contract/endpoint";

describe("the API contract", () => {
  it("has every area's endpoints under unique names", () => {
    const total = Object.values(endpointAreas).reduce((n, a) => n + Object.keys(a).length, 0);
    expect(Object.keys(endpoints)).toHaveLength(total);
  });

  it("refuses a duplicate name or a duplicate method and path", () => {
    const a = endpoint({ method: "GET", path: "/x/{id}", summary: "x", tags: ["X"], access: access.public, response: z.object({}) });
    const b = endpoint({ method: "GET", path: "/x/{other}", summary: "y", tags: ["X"], access: access.public, response: z.object({}) });
    expect(() => mergeAreas({ one: { a }, two: { a } })).toThrow(/already used/);
    expect(() => mergeAreas({ one: { a }, two: { b } })).toThrow(/declared twice/);
  });

  it("declares paths with {name} parameters that match the params schema", () => {
    for (const [name, def] of Object.entries(endpoints) as [string, EndpointDef][]) {
      const inPath = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = def.params ? Object.keys((def.params as z.ZodObject).shape).sort() : [];
      expect(declared, name).toEqual(inPath);
      expect(def.path.startsWith("/"), name).toBe(true);
    }
  });
});
