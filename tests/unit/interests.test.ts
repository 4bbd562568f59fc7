/** Interests (SPEC §3 metadata.interests, comma-separated) and the gender they carry (SPEC §4). */
import { describe, expect, it } from "vitest";
import { formatInterests, genderOfInterests, interestKey, isGenderWord, parseInterests, tasteInterests, withGender } from "../../app/lib/interests";
import { genderFromInterests } from "../../app/services/recommendations/scoring";
import { genderFromInterests as storefrontGender } from "../../storefront/src/lib/gender-preference";

describe("interests", () => {
  it("parses a comma-separated string or a list: trimmed, lower-case, unique, in order", () => {
    expect(parseInterests(" Menswear, Street  Wear ,,streetwear,menswear")).toEqual(["menswear", "street wear"]);
    expect(parseInterests(["Linen", "linen", " a,b "])).toEqual(["linen", "a", "b"]);
    expect(parseInterests(null)).toEqual([]);
    expect(formatInterests(["Workwear", "linen", "workwear"])).toBe("workwear,linen");
  });

  it("issue 20: the same interest in another case, spacing, hyphenation or plural is one interest (the first spelling kept)", () => {
    expect(parseInterests("t-shirt,T-Shirts,t shirt,tshirts,Jeans,jean,dresses,dress,hoodies,hoodie,linen")).toEqual(["t-shirt", "jeans", "dresses", "hoodies", "linen"]);
    expect(interestKey("T-Shirts")).toBe(interestKey("t shirt"));
    expect(interestKey("dresses")).toBe("dress");
    expect(interestKey("glass")).toBe("glass");
    expect(formatInterests(["workwear", "Work-Wear", "work wear"])).toBe("workwear");
  });

  it("SPEC §4: exactly one of the two genders means that gender, otherwise both", () => {
    expect(genderOfInterests("menswear,streetwear")).toBe("menswear");
    expect(genderOfInterests("streetwear, WOMENSWEAR")).toBe("womenswear");
    expect(genderOfInterests("menswear,womenswear")).toBe("both");
    expect(genderOfInterests("")).toBe("both");
  });

  it("agrees with the recommendation engine and the storefront on the gender rule", () => {
    for (const raw of ["menswear", "womenswear,linen", "menswear,womenswear", "", "Menswear , x", "unisex"]) {
      expect(genderFromInterests(raw), raw).toBe(genderOfInterests(raw));
      expect(storefrontGender(raw), raw).toBe(genderOfInterests(raw));
    }
  });

  it("sets the gender in the interests: the chosen one first, the other out; both takes both out", () => {
    expect(withGender("streetwear,menswear,linen", "womenswear")).toEqual(["womenswear", "streetwear", "linen"]);
    expect(withGender("womenswear,menswear,linen", "menswear")).toEqual(["menswear", "linen"]);
    expect(withGender("womenswear,linen", "both")).toEqual(["linen"]);
    expect(genderOfInterests(withGender("menswear,womenswear", "womenswear"))).toBe("womenswear");
  });

  it("taste interests leave gender words out", () => {
    expect(tasteInterests("menswear,unisex,linen,Both,workwear")).toEqual(["linen", "workwear"]);
    expect(isGenderWord(" Womenswear ")).toBe(true);
    expect(isGenderWord("linen")).toBe(false);
  });
});
