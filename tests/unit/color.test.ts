import { describe, expect, it } from "vitest";
import { deltaE2000, dominantLab, hexToLab, labToHex, lightnessWindow, rgbToLab } from "../../app/services/color.server";

describe("colour science", () => {
  it("CIEDE2000 matches Sharma, Wu & Dalal's test data", () => {
    // Pairs 1, 7, 13, 17, 25 and 34 of the published 34-pair table (ΔE00 to 4 decimals).
    const pairs: [number[], number[], number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
    ];
    for (const [x, y, expected] of pairs) {
      const d = deltaE2000({ l: x[0], a: x[1], b: x[2] }, { l: y[0], a: y[1], b: y[2] });
      expect(d).toBeCloseTo(expected, 3);
    }
  });

  it("converts sRGB and hex to CIELAB (D65) and back", () => {
    const white = rgbToLab(255, 255, 255);
    expect(white.l).toBeCloseTo(100, 2);
    expect(Math.abs(white.a)).toBeLessThan(0.01);
    const red = rgbToLab(255, 0, 0);
    expect(red.l).toBeCloseTo(53.24, 1);
    expect(red.a).toBeCloseTo(80.09, 1);
    expect(red.b).toBeCloseTo(67.2, 1);
    expect(hexToLab("#f00")).toEqual(red);
    expect(hexToLab("nope")).toBeNull();
    for (const hex of ["#123456", "#ff8800", "#000000", "#fafafa"]) expect(labToHex(hexToLab(hex)!)).toBe(hex);
    // Out of gamut colours are clamped to a displayable one.
    expect(labToHex({ l: 50, a: 150, b: -150 })).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("the lightness window never excludes a colour within the threshold", () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const x = { l: rand() * 100, a: rand() * 200 - 100, b: rand() * 200 - 100 };
      const y = { l: rand() * 100, a: rand() * 200 - 100, b: rand() * 200 - 100 };
      const t = 1 + rand() * 60;
      if (deltaE2000(x, y) <= t) expect(Math.abs(x.l - y.l)).toBeLessThanOrEqual(lightnessWindow(t));
    }
  });

  it("finds the dominant colour of pixels, skipping transparent ones", () => {
    const px = (hex: string, n: number, alpha?: number) => {
      const v = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      return Array.from({ length: n }, () => (alpha === undefined ? v : [...v, alpha])).flat();
    };
    const rgb = new Uint8Array([...px("#1e40af", 60), ...px("#fbbf24", 30), ...px("#ffffff", 10)]);
    expect(deltaE2000(dominantLab(rgb, 3), hexToLab("#1e40af")!)).toBeLessThan(0.5);
    // Slight noise around one colour averages to it.
    const noisy = new Uint8Array([...px("#c81e1e", 20), ...px("#ca2020", 20), ...px("#c41c1c", 20), ...px("#00ff00", 30)]);
    expect(deltaE2000(dominantLab(noisy, 3), hexToLab("#c81e1e")!)).toBeLessThan(1.5);
    const rgba = new Uint8Array([...px("#00ff00", 80, 0), ...px("#ff0000", 20, 255)]);
    expect(deltaE2000(dominantLab(rgba, 4), hexToLab("#ff0000")!)).toBeLessThan(0.5);
    expect(dominantLab(new Uint8Array([]), 3)).toEqual({ l: 100, a: 0, b: 0 });
    expect(dominantLab(rgb, 3)).toEqual(dominantLab(rgb, 3));
  });
});
