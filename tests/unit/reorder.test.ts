import { describe, expect, it } from "vitest";
import { moveItem } from "../../app/lib/reorder";

describe("moveItem", () => {
  it("moves an item up and down without changing the input", () => {
    const list = ["a", "b", "c", "d"];
    expect(moveItem(list, 2, 0)).toEqual(["c", "a", "b", "d"]);
    expect(moveItem(list, 0, 3)).toEqual(["b", "c", "d", "a"]);
    expect(list).toEqual(["a", "b", "c", "d"]);
  });

  it("leaves the list as it is for a move out of range or onto itself", () => {
    const list = ["a", "b"];
    expect(moveItem(list, 0, -1)).toBe(list);
    expect(moveItem(list, 1, 2)).toBe(list);
    expect(moveItem(list, 1, 1)).toBe(list);
  });
});
