import { describe, expect, it } from "vitest";
import {
  genderFromInterests,
  isGender,
  readStoredGender,
  resolveGenderPreference,
  savedGenderPreference,
  targetGenderParam,
  writeStoredGender,
  type StorageLike,
} from "../../../storefront/src/lib/gender-preference";
import { GENDER_STORAGE_KEY } from "../../../storefront/src/lib/constants";

function memoryStorage(initial: Record<string, string> = {}): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const throwing: StorageLike = {
  getItem: () => {
    throw new Error("SecurityError");
  },
  setItem: () => {
    throw new Error("QuotaExceededError");
  },
  removeItem: () => {
    throw new Error("SecurityError");
  },
};

describe("genderFromInterests", () => {
  it.each([
    ["menswear", "menswear"],
    ["womenswear", "womenswear"],
    ["streetwear, Menswear ,vintage", "menswear"],
    ["vintage,WOMENSWEAR", "womenswear"],
    ["menswear,womenswear", "both"],
    ["streetwear", "both"],
    ["", "both"],
    [undefined, "both"],
    [null, "both"],
    ["menswear-ish", "both"],
  ] as const)("%s → %s", (interests, out) => expect(genderFromInterests(interests)).toBe(out));
});

describe("resolveGenderPreference precedence: path → stored → interests → both", () => {
  it("the path prefix wins over everything", () => {
    expect(resolveGenderPreference({ pathname: "/mens", stored: "womenswear", interests: "womenswear", hasUser: true })).toBe("menswear");
    expect(resolveGenderPreference({ pathname: "/womens/stores", stored: "menswear", interests: "menswear", hasUser: true })).toBe("womenswear");
    expect(resolveGenderPreference({ pathname: "/mens/products/x", stored: "both" })).toBe("menswear");
  });

  it("then the stored value", () => {
    expect(resolveGenderPreference({ pathname: "/", stored: "womenswear", interests: "menswear", hasUser: true })).toBe("womenswear");
    expect(resolveGenderPreference({ pathname: "/stores", stored: "both", interests: "menswear", hasUser: true })).toBe("both");
  });

  it("then the user's interests", () => {
    expect(resolveGenderPreference({ pathname: "/", stored: null, interests: "streetwear,menswear", hasUser: true })).toBe("menswear");
    expect(resolveGenderPreference({ pathname: "/saved", interests: "menswear,womenswear", hasUser: true })).toBe("both");
  });

  it("then both", () => {
    expect(resolveGenderPreference({ pathname: "/" })).toBe("both");
    expect(resolveGenderPreference({})).toBe("both");
    expect(resolveGenderPreference({ pathname: "/", hasUser: true })).toBe("both");
  });

  it("the saved preference ignores the path", () => {
    expect(savedGenderPreference({ pathname: "/mens", stored: null })).toBe("both");
    expect(savedGenderPreference({ stored: "womenswear", interests: "menswear" })).toBe("womenswear");
    expect(savedGenderPreference({ interests: "menswear" })).toBe("menswear");
  });
});

describe("stored preference in session storage", () => {
  it("reads and writes under the app key", () => {
    const s = memoryStorage();
    expect(readStoredGender(s)).toBeNull();
    writeStoredGender(s, "menswear");
    expect(s.data.get(GENDER_STORAGE_KEY)).toBe("menswear");
    expect(GENDER_STORAGE_KEY).toBe("fashion-discovery:gender");
    expect(readStoredGender(s)).toBe("menswear");
    writeStoredGender(s, "both");
    expect(readStoredGender(s)).toBe("both");
  });

  it("ignores invalid values and unavailable storage", () => {
    expect(readStoredGender(memoryStorage({ [GENDER_STORAGE_KEY]: "kidswear" }))).toBeNull();
    expect(readStoredGender(throwing)).toBeNull();
    expect(readStoredGender(null)).toBeNull();
    expect(() => writeStoredGender(throwing, "menswear")).not.toThrow();
    expect(() => writeStoredGender(undefined, "menswear")).not.toThrow();
  });

  it("validates genders and omits target_gender for both", () => {
    expect(["menswear", "womenswear", "both"].every(isGender)).toBe(true);
    expect(isGender("unisex")).toBe(false);
    expect(targetGenderParam("both")).toBeUndefined();
    expect(targetGenderParam("menswear")).toBe("menswear");
  });
});
