/**
 * Composition text → material categories (app/services/materials/categories.server.ts
 * mapComposition) on the default tree: Taobao's Chinese and English texts, the most specific
 * category named in the text, admin keywords outside the fibre vocabulary, blends.
 */
import { describe, expect, it } from "vitest";
import { mapComposition, subtreeIds, type CategoryTerms } from "../../app/services/materials/categories.server";
import { DEFAULT_MATERIAL_TREE, type TreeSeed } from "../../app/services/materials/default-tree";

function flatten(nodes: TreeSeed[], parent: string | null = null): CategoryTerms[] {
  return nodes.flatMap((n) => [{ id: n.handle, name: n.name, handle: n.handle, parent_id: parent, keywords: n.keywords ?? [] }, ...flatten(n.children ?? [], n.handle)]);
}
const tree = flatten(DEFAULT_MATERIAL_TREE);
const map = (text: string, cats = tree) => mapComposition(text, cats).map((m) => [m.category.handle, m.percent]);

describe("mapComposition", () => {
  it.each([
    ["95%棉 5%氨纶", [["cotton", 95], ["elastane", 5], ["blends", null]]],
    ["cotton 95% spandex 5%", [["cotton", 95], ["elastane", 5], ["blends", null]]],
    ["100% cotton", [["cotton", 100]]],
    ["2026春夏新款男士纯棉T恤", [["cotton", 100]]],
    ["80% merino wool, 20% polyamide", [["merino", 80], ["nylon", 20], ["blends", null]]],
    ["100% wool", [["wool", 100]]],
    ["羊绒100%", [["cashmere", 100]]],
    ["55% linen, 45% cotton", [["linen", 55], ["cotton", 45], ["blends", null]]],
    ["100% goat suede, cotton lining", [["suede", 100]]],
    ["真丝", [["silk", null]]],
  ])("%s", (text, expected) => {
    expect(map(text)).toEqual(expected);
  });

  it("maps nothing from text without a material", () => {
    expect(map("A relaxed shirt for summer")).toEqual([]);
    expect(map("")).toEqual([]);
  });

  it("an admin's category outside the fibre vocabulary is found by its keywords, without a percentage", () => {
    const withBamboo = [...tree, { id: "bamboo", name: "Bamboo", handle: "bamboo", parent_id: "cellulosics", keywords: ["bamboo", "竹纤维"] }];
    expect(map("70% bamboo, 30% cotton", withBamboo)).toEqual([["cotton", 30], ["bamboo", null], ["blends", null]]);
    expect(map("竹纤维T恤", withBamboo)).toEqual([["bamboo", null]]);
  });

  it("a category renamed by an admin still catches its fibre through the fibre's words", () => {
    const renamed = tree.map((c) => (c.handle === "nylon" ? { ...c, name: "Polyamide (nylon)", keywords: ["锦纶"] } : c));
    expect(map("锦纶100%", renamed)).toEqual([["nylon", 100]]);
  });

  it("subtreeIds takes a category and everything under it", () => {
    expect(subtreeIds(tree, "wool").sort()).toEqual(["alpaca", "cashmere", "merino", "mohair", "wool"]);
    expect(subtreeIds(tree, "cotton")).toEqual(["cotton"]);
  });
});
