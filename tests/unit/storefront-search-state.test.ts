import { describe, expect, it } from "vitest";
import {
  SORT_OPTIONS,
  clearRefinements,
  hasRefinements,
  pageWindow,
  parseSearchState,
  searchRequestBody,
  withGender,
  withInStock,
  withListValueToggled,
  withPage,
  withPrice,
  withSort,
  withoutFilter,
  withoutParsedChip,
} from "../../storefront/src/lib/search-state";

const qs = (s: string) => new URLSearchParams(s);

describe("search state in the address", () => {
  it("has exactly the four sort options of SPEC §9", () => {
    expect(SORT_OPTIONS.map((o) => o.value)).toEqual(["Relevance", "Price low to high", "Price high to low", "Newest"]);
  });

  it("reads the term, sort, page, gender and filters", () => {
    const s = parseSearchState("?search=linen%20shirt&sort=price-desc&page=3&color=Red&color=Blue&size=M&type=Shirts&store=s1&material=Linen&price=50-100&instock=1", "menswear");
    expect(s).toEqual({
      term: "linen shirt",
      sort: "Price high to low",
      page: 3,
      gender: "menswear",
      genderOverride: false,
      filters: { colors: ["Red", "Blue"], sizes: ["M"], productTypes: ["Shirts"], storeIds: ["s1"], materials: ["Linen"], priceMin: 50, priceMax: 100, available: true },
      raw: false,
      text: null,
    });
    expect(hasRefinements(s)).toBe(true);
  });

  it("falls back to relevance, page 1 and the preference on odd values", () => {
    const s = parseSearchState("?search=x&sort=nope&page=-4&gender=kids&price=abc-", "womenswear");
    expect(s.sort).toBe("Relevance");
    expect(s.page).toBe(1);
    expect(s.gender).toBe("womenswear");
    expect(s.genderOverride).toBe(false);
    expect(s.filters).toEqual({});
    expect(hasRefinements(s)).toBe(false);
    expect(parseSearchState("?price=200-", "both").filters).toEqual({ priceMin: 200 });
    expect(parseSearchState("?price=200-100", "both").filters).toEqual({ priceMin: 200 });
  });

  it("builds the searchProducts body with the page size and the preference as gender", () => {
    const s = parseSearchState("?search=black+coat&page=2&color=Black&raw=1&q=coat", "menswear");
    expect(searchRequestBody(s, 14)).toEqual({
      query: "coat",
      page: 2,
      limit: 14,
      sort: "Relevance",
      filters: { target_gender: "menswear", colors: ["Black"] },
      skipAutoParsing: true,
    });
    // "both" sends no gender unless the address chose it
    expect(searchRequestBody(parseSearchState("?search=coat", "both"), 20).filters).toEqual({});
    expect(searchRequestBody(parseSearchState("?search=coat&gender=both", "menswear"), 20).filters).toEqual({ target_gender: "both" });
  });

  it("a new term keeps the sort and drops filters, page, raw and the modal", () => {
    expect(clearRefinements("?search=a&sort=newest&page=2&color=Red&raw=1&q=b&gender=both&price=1-2&instock=1&product=1001&x=1")).toBe("?search=a&sort=newest&x=1");
  });

  it("sort, facets and price go back to page 1", () => {
    expect(withSort("?search=a&page=3", "Price low to high")).toBe("?search=a&sort=price-asc");
    expect(withSort("?search=a&sort=newest", "Relevance")).toBe("?search=a");
    expect(withListValueToggled("?search=a&page=2", "colors", "Red")).toBe("?search=a&color=Red");
    expect(withListValueToggled("?search=a&color=Red&color=Blue", "colors", "Red")).toBe("?search=a&color=Blue");
    expect(withPrice("?search=a&page=2", { min: 50, max: null })).toBe("?search=a&price=50-");
    expect(withPrice("?search=a&price=50-", null)).toBe("?search=a");
    expect(withInStock("?search=a", true)).toBe("?search=a&instock=1");
    expect(withGender("?search=a&page=4", "womenswear")).toBe("?search=a&gender=womenswear");
    expect(withPage("?search=a", 2)).toBe("?search=a&page=2");
    expect(withPage("?search=a&page=2", 1)).toBe("?search=a");
    expect(withoutFilter("?search=a&size=M&size=L&page=2", "sizes", "M")).toBe("?search=a&size=L");
    expect(withoutFilter("?search=a&price=1-2", "priceMin")).toBe("?search=a");
  });

  it("removing a parsed chip resubmits the text without auto-parsing and with the remaining filters", () => {
    const answer = {
      query: { raw: "red linen shirt for men under 100", text: "shirt", corrected: null, searchId: "s1" },
      filters: {
        applied: { target_gender: "menswear" as const, colors: ["red"], materials: ["linen"], priceMax: 100 },
        parsed: [
          { key: "colors" as const, value: "red", label: "Red" },
          { key: "materials" as const, value: "linen", label: "Linen" },
          { key: "target_gender" as const, value: "menswear", label: "Menswear" },
          { key: "priceMax" as const, value: 100, label: "Under $100" },
        ],
        facets: { total: 0, gender: [], price: [], colors: [], sizes: [], productTypes: [], stores: [], availability: { inStock: 0, outOfStock: 0 } },
      },
    };
    const search = "?search=red+linen+shirt+for+men+under+100&sort=newest&page=2";
    const noRed = withoutParsedChip(search, answer, answer.filters.parsed[0], "both");
    const p = qs(noRed);
    expect(p.get("search")).toBe("red linen shirt for men under 100");
    expect(p.get("q")).toBe("shirt");
    expect(p.get("raw")).toBe("1");
    expect(p.get("sort")).toBe("newest");
    expect(p.get("page")).toBeNull();
    expect(p.getAll("color")).toEqual([]);
    expect(p.getAll("material")).toEqual(["linen"]);
    expect(p.get("gender")).toBe("menswear");
    expect(p.get("price")).toBe("0-100");
    // the state read back sends exactly the remaining filters
    expect(searchRequestBody(parseSearchState(noRed, "both"), 20)).toMatchObject({
      query: "shirt",
      skipAutoParsing: true,
      filters: { target_gender: "menswear", materials: ["linen"], priceMin: 0, priceMax: 100 },
    });
    // removing the gender chip on a menswear preference means every gender
    expect(qs(withoutParsedChip(search, answer, answer.filters.parsed[2], "menswear")).get("gender")).toBe("both");
    // removing the price chip
    expect(qs(withoutParsedChip(search, answer, answer.filters.parsed[3], "both")).get("price")).toBeNull();
  });

  it("offers first, last and the pages around the current one", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, null, 10]);
  });
});

describe("clearing every filter", () => {
  it("drops parsed filters too by searching the text left without auto-parsing", async () => {
    const { withoutAllFilters } = await import("../../storefront/src/lib/search-state");
    const answer = {
      query: { raw: "red shirts", text: "", corrected: null, searchId: "s" },
      filters: { applied: { colors: ["red"] }, parsed: [{ key: "colors" as const, value: "red", label: "Red" }], facets: {} as never },
    };
    const next = withoutAllFilters("?search=red+shirts&size=M&sort=newest", answer);
    expect(next).toBe("?search=red+shirts&sort=newest&raw=1&q=");
    expect(searchRequestBody(parseSearchState(next, "both"), 20)).toMatchObject({ query: "", skipAutoParsing: true, filters: {} });
    expect(withoutAllFilters("?search=coat&color=Red", { ...answer, filters: { ...answer.filters, parsed: [] } })).toBe("?search=coat");
  });
});
