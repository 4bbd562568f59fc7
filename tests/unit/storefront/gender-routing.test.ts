import { describe, expect, it } from "vitest";
import {
  genderFromPath,
  homePathFor,
  isHomePath,
  isPathChange,
  normalizePath,
  pathForGender,
  readSearchTerm,
  redirectForPreference,
  searchAfterNavigation,
  storesPathFor,
  stripGenderPrefix,
  switchGenderLocation,
  withSearchTerm,
} from "../../../storefront/src/lib/gender-routing";

describe("normalizePath", () => {
  it.each([
    ["/", "/"],
    ["", "/"],
    ["//", "/"],
    ["/mens/", "/mens"],
    ["//stores", "/stores"],
    ["/mens//stores/", "/mens/stores"],
    ["stores", "/stores"],
    ["/a///b//", "/a/b"],
  ])("%s → %s", (input, out) => expect(normalizePath(input)).toBe(out));
});

describe("genderFromPath and stripGenderPrefix", () => {
  it.each([
    ["/mens", "menswear", "/"],
    ["/mens/", "menswear", "/"],
    ["/mens/stores", "menswear", "/stores"],
    ["/mens/products/x", "menswear", "/products/x"],
    ["/womens", "womenswear", "/"],
    ["/womens/stores", "womenswear", "/stores"],
    ["/", null, "/"],
    ["/stores", null, "/stores"],
    ["/saved", null, "/saved"],
    ["/menswear-sale", null, "/menswear-sale"],
    ["/womenswear", null, "/womenswear"],
    ["/products/mens", null, "/products/mens"],
  ])("%s → %s, rest %s", (path, gender, rest) => {
    expect(genderFromPath(path)).toBe(gender);
    expect(stripGenderPrefix(path)).toBe(rest);
  });
});

describe("redirectForPreference (saved preference on / and /stores)", () => {
  it.each([
    ["/", "menswear", "/mens"],
    ["/", "womenswear", "/womens"],
    ["/stores", "menswear", "/mens/stores"],
    ["/stores", "womenswear", "/womens/stores"],
    ["/stores/", "womenswear", "/womens/stores"],
  ] as const)("%s with %s → %s", (path, saved, target) => expect(redirectForPreference(path, saved)).toBe(target));

  it("does not redirect for both", () => {
    expect(redirectForPreference("/", "both")).toBeNull();
    expect(redirectForPreference("/stores", "both")).toBeNull();
  });

  it("does not redirect other paths", () => {
    for (const p of ["/mens", "/womens", "/mens/stores", "/womens/stores", "/saved", "/login", "/mens/products/x"]) {
      expect(redirectForPreference(p, "menswear")).toBeNull();
      expect(redirectForPreference(p, "womenswear")).toBeNull();
    }
  });
});

describe("pathForGender (switching rewrites the path)", () => {
  it.each([
    ["/", "menswear", "/mens"],
    ["/", "womenswear", "/womens"],
    ["/", "both", "/"],
    ["/mens", "womenswear", "/womens"],
    ["/mens", "both", "/"],
    ["/womens", "menswear", "/mens"],
    ["/mens/", "menswear", "/mens"],
    ["/stores", "menswear", "/mens/stores"],
    ["/mens/stores", "womenswear", "/womens/stores"],
    ["/womens/stores", "both", "/stores"],
    ["//stores", "both", "/stores"],
    ["/mens//stores/", "womenswear", "/womens/stores"],
    ["/mens/products/x", "womenswear", "/products/x"],
    ["/mens/products/x", "menswear", "/products/x"],
    ["/womens/products/x", "both", "/products/x"],
    ["/saved", "menswear", "/saved"],
    ["/saved/", "womenswear", "/saved"],
    ["/login", "both", "/login"],
  ] as const)("%s switched to %s → %s", (path, gender, out) => expect(pathForGender(path, gender)).toBe(out));

  it("gives home and stores paths per gender", () => {
    expect([homePathFor("menswear"), homePathFor("womenswear"), homePathFor("both")]).toEqual(["/mens", "/womens", "/"]);
    expect([storesPathFor("menswear"), storesPathFor("womenswear"), storesPathFor("both")]).toEqual(["/mens/stores", "/womens/stores", "/stores"]);
  });

  it("knows the home paths", () => {
    expect(["/", "/mens", "/womens/", "//"].every(isHomePath)).toBe(true);
    expect(["/stores", "/mens/stores", "/login", "/mens/products/x"].some(isHomePath)).toBe(false);
  });
});

describe("search term in ?search=", () => {
  it("reads and trims the term", () => {
    expect(readSearchTerm("?search=%20linen%20shirt%20")).toBe("linen shirt");
    expect(readSearchTerm("?search=")).toBe("");
    expect(readSearchTerm("")).toBe("");
    expect(readSearchTerm(new URLSearchParams("a=1&search=coat"))).toBe("coat");
  });

  it("sets and removes the term, keeping other parameters", () => {
    expect(withSearchTerm("", "coat")).toBe("?search=coat");
    expect(withSearchTerm("?a=1", " wool coat ")).toBe("?a=1&search=wool+coat");
    expect(withSearchTerm("?search=coat&a=1", "")).toBe("?a=1");
    expect(withSearchTerm("?search=coat", "  ")).toBe("");
  });

  it("clears the term on every path change, keeps it on the same path", () => {
    expect(isPathChange("/", "/mens")).toBe(true);
    expect(isPathChange("/mens/", "/mens")).toBe(false);
    expect(searchAfterNavigation("/", "/mens", "?search=coat")).toBe("");
    expect(searchAfterNavigation("/mens", "/mens/stores", "?search=coat&ref=x")).toBe("?ref=x");
    expect(searchAfterNavigation("/mens", "/mens", "?search=coat")).toBe("?search=coat");
    expect(searchAfterNavigation("/mens", "/mens/", "search=coat")).toBe("?search=coat");
  });

  it("switching gender drops ?search= when the path changes", () => {
    expect(switchGenderLocation({ pathname: "/", search: "?search=coat" }, "menswear")).toEqual({ pathname: "/mens", search: "" });
    expect(switchGenderLocation({ pathname: "/mens/stores", search: "?search=x&a=1" }, "both")).toEqual({ pathname: "/stores", search: "?a=1" });
    // Path unchanged (a non-gendered page): the term stays.
    expect(switchGenderLocation({ pathname: "/saved", search: "?search=coat" }, "menswear")).toEqual({ pathname: "/saved", search: "?search=coat" });
  });
});
