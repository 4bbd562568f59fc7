/**
 * The rules of `CommercePort.updateProductVariants`, shared by both adapters so the local store
 * and Shopify refuse the same changes, before anything is written.
 */
import { CommerceError, type SelectedOption, type VariantChanges, type VariantCreateInput, type VariantUpdateInput } from "./port";

interface ProductShape {
  options: { name: string; values: string[] }[];
  variants: { id: string; selectedOptions: SelectedOption[] }[];
}

export interface VariantPlan {
  create: VariantCreateInput[];
  update: VariantUpdateInput[];
  delete: string[];
  /** Per option (by name), the values the created variants add, in order of first use. */
  addedValues: Map<string, string[]>;
  /** Per option (by name), the values no variant uses once the plan is applied. */
  unusedValues: Map<string, string[]>;
}

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const comboKey = (opts: SelectedOption[]) => JSON.stringify([...opts].sort((a, b) => a.name.localeCompare(b.name)).map((o) => [o.name, o.value]));

function checkAmount(value: string | null | undefined, field: string[]) {
  if (value === null || value === undefined) return;
  if (!AMOUNT.test(value.trim())) throw new CommerceError(`${value} is not a price`, [{ field, message: "Price must be a non-negative amount" }]);
}

/** Checks `changes` against the product and answers what applying them means; throws CommerceError when refused. */
export function planVariantChanges(product: ProductShape, changes: VariantChanges): VariantPlan {
  const order = (opts: SelectedOption[]) => [...opts].sort((a, b) => product.options.findIndex((o) => o.name === a.name) - product.options.findIndex((o) => o.name === b.name));
  // Created variants name their options in the product's order (titles read "Colour / Size").
  const create = (changes.create ?? []).map((v) => ({ ...v, selectedOptions: order(v.selectedOptions) }));
  const update = changes.update ?? [];
  const remove = [...new Set(changes.delete ?? [])];
  const ids = new Set(product.variants.map((v) => v.id));
  const unknown = [...update.map((u) => u.id), ...remove].filter((id) => !ids.has(id));
  if (unknown.length) throw new CommerceError(`Variant ${unknown[0]} not found on the product`, unknown.map((id) => ({ field: ["variantId"], message: `Variant ${id} does not exist` })), 404);

  const optionNames = product.options.map((o) => o.name);
  const kept = product.variants.filter((v) => !remove.includes(v.id));
  const combos = new Set(kept.map((v) => comboKey(v.selectedOptions)));
  const addedValues = new Map<string, string[]>();
  for (const [i, v] of create.entries()) {
    const field = ["create", String(i)];
    const names = v.selectedOptions.map((o) => o.name);
    if (names.length !== optionNames.length || new Set(names).size !== names.length || names.some((n) => !optionNames.includes(n))) {
      throw new CommerceError(`A new variant must name each of the product's options once (${optionNames.join(", ") || "none"})`, [{ field: [...field, "selectedOptions"], message: "Options do not match the product's" }]);
    }
    if (v.selectedOptions.some((o) => !o.value.trim())) throw new CommerceError("Option value can't be blank", [{ field: [...field, "selectedOptions"], message: "Option value can't be blank" }]);
    const key = comboKey(v.selectedOptions);
    if (combos.has(key)) {
      throw new CommerceError(`A variant ${v.selectedOptions.map((o) => o.value).join(" / ")} already exists`, [{ field: [...field, "selectedOptions"], message: "Variant already exists" }]);
    }
    combos.add(key);
    checkAmount(v.price, [...field, "price"]);
    checkAmount(v.compareAtPrice, [...field, "compareAtPrice"]);
    if (v.colorHex && !/^#[0-9a-fA-F]{6}$/.test(v.colorHex)) throw new CommerceError(`${v.colorHex} is not a colour hex (#rrggbb)`, [{ field: [...field, "colorHex"], message: "Invalid colour" }]);
    if (!Number.isInteger(v.inventoryQuantity)) throw new CommerceError("Inventory must be a whole number", [{ field: [...field, "inventoryQuantity"], message: "Not an integer" }]);
    for (const o of v.selectedOptions) {
      const option = product.options.find((p) => p.name === o.name)!;
      const added = addedValues.get(o.name) ?? [];
      if (!option.values.includes(o.value) && !added.includes(o.value)) addedValues.set(o.name, [...added, o.value]);
    }
  }
  for (const [i, u] of update.entries()) {
    checkAmount(u.price, ["update", String(i), "price"]);
    checkAmount(u.compareAtPrice, ["update", String(i), "compareAtPrice"]);
  }
  if (kept.length + create.length === 0) throw new CommerceError("A product must keep at least one variant", [{ field: ["delete"], message: "Deleting these variants would remove every variant" }]);

  const used = [...kept.map((v) => v.selectedOptions), ...create.map((v) => v.selectedOptions)];
  const unusedValues = new Map<string, string[]>();
  for (const option of product.options) {
    const values = [...option.values, ...(addedValues.get(option.name) ?? [])];
    const unused = values.filter((value) => !used.some((opts) => opts.some((o) => o.name === option.name && o.value === value)));
    if (unused.length) unusedValues.set(option.name, unused);
  }
  return { create, update, delete: remove, addedValues, unusedValues };
}
