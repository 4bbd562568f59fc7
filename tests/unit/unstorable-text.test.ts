/** The check for text PostgreSQL cannot store (app/lib/unstorable-text.ts). */
import { describe, expect, it } from "vitest";
import { findUnstorableText, isUnstorableText, stripUnstorableDeep, stripUnstorableText } from "../../app/lib/unstorable-text";

describe("isUnstorableText", () => {
  it("finds NUL and unpaired surrogates, and nothing in honest text", () => {
    for (const bad of ["\u0000", "a\u0000b", "\ud800", "a\ud800b", "\udc00", "x\udc00", "\ud83d\ud83d\ude00"]) expect(isUnstorableText(bad), JSON.stringify(bad)).toBe(true);
    for (const ok of ["", "plain", "robe d'été", "👗", "a\u0001\t\n", "\ud83d\ude00\ud83d\ude00"]) expect(isUnstorableText(ok), JSON.stringify(ok)).toBe(false);
  });
});

describe("findUnstorableText", () => {
  it("names the path of the first bad string, keys included", () => {
    expect(findUnstorableText({ a: "ok", b: [1, "x", { c: "n\u0000" }] })).toBe("b.2.c");
    expect(findUnstorableText({ ["k\u0000"]: 1 })).toBe("k\u0000");
    expect(findUnstorableText("\ud800")).toBe("");
    expect(findUnstorableText({ a: ["fine", 1, null, true] })).toBeNull();
  });

  it("reads FormData fields and file names", () => {
    const fd = new FormData();
    fd.set("title", "ok");
    fd.set("file", new Blob([new Uint8Array([0])]), "a\u0000.jpg");
    expect(findUnstorableText(fd)).toBe("file");
  });

  it("walks a deeply nested value without exhausting the stack", () => {
    let deep: unknown = "end\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toMatch(/^0(\.0)*$/);
  });
});

describe("stripping", () => {
  it("removes only the unstorable characters, in strings and keys", () => {
    expect(stripUnstorableText("Li\u0000nen\ud800 👗")).toBe("Linen 👗");
    expect(stripUnstorableDeep({ ["t\u0000"]: ["a\udc00", 1, { b: "c\u0000" }] })).toEqual({ t: ["a", 1, { b: "c" }] });
  });
});
