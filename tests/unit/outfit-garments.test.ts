import { describe, expect, it } from "vitest";
import { COMPLEMENTS, garmentGroupOf, harmonyOf, proposalKey } from "../../app/services/outfits/garments";

describe("garment groups", () => {
  it("reads the product type first, then the title", () => {
    expect(garmentGroupOf({ productType: "T-Shirts", title: "" })).toBe("top");
    expect(garmentGroupOf({ productType: "Hoodies & Sweatshirts", title: "" })).toBe("top");
    expect(garmentGroupOf({ productType: "Jeans", title: "" })).toBe("bottom");
    expect(garmentGroupOf({ productType: "Blazers", title: "" })).toBe("outerwear");
    expect(garmentGroupOf({ productType: "Dresses", title: "Shirt dress" })).toBe("one-piece");
    expect(garmentGroupOf({ productType: "", title: "Chelsea Boots" })).toBe("shoes");
    expect(garmentGroupOf({ productType: "", title: "Canvas Tote Bag" })).toBe("accessory");
    expect(garmentGroupOf({ productType: "", title: "Gift card" })).toBeNull();
  });

  it("a top needs a bottom; a one-piece needs nothing more", () => {
    expect(COMPLEMENTS.top.required).toEqual(["bottom"]);
    expect(COMPLEMENTS["one-piece"].required).toEqual([]);
  });
});

describe("colour harmony", () => {
  it("neutrals go with anything; close hues are monochrome or analogous; opposite hues complementary", () => {
    expect(harmonyOf(["#000000", "#ffffff", "#c0392b"])).toBe("neutral");
    expect(harmonyOf([null, "#1f2a44"])).toBe("neutral");
    expect(harmonyOf(["#c0392b", "#b03a2e"])).toBe("monochrome");
    expect(harmonyOf(["#c0392b", "#d35400"])).toBe("analogous");
    expect(harmonyOf(["#2e86c1", "#e67e22"])).toBe("complementary");
    expect(harmonyOf(["#c0392b", "#27ae60", "#2e86c1"])).toBe("mixed");
  });

  it("the same products in any order are the same proposal", () => {
    expect(proposalKey(["b", "a", "c"])).toBe(proposalKey(["c", "b", "a"]));
  });
});
