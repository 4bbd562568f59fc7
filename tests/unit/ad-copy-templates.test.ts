/**
 * The local language model's ad copy (app/providers/language-model/ad-copy.ts): deterministic
 * variants within the ad's limits, different from each other and from the copy to avoid, made of
 * the product's facts and the brief; and the OpenAI adapter's use of them when the model fails.
 */
import { describe, expect, it } from "vitest";
import { adPrice, briefSentence, clipWords, templateAdCopy } from "../../app/providers/language-model/ad-copy";
import { createLocalLanguageModel } from "../../app/providers/language-model/local.server";
import { createOpenAiLanguageModel } from "../../app/providers/language-model/openai.server";
import { AdCopyInput, LanguageModelError, withValidation, type AdCopyInput as AdCopyInputT } from "../../app/providers/language-model/port";

const base: AdCopyInputT = {
  product: { title: "Relaxed Linen Camp Shirt", productType: "Shirts", brand: "Atelier Aster", colours: ["Sand", "Navy"], price: "49.00", currencyCode: "USD", target_gender: "menswear" },
  brief: "Young professionals in the city. Summer linen that breathes.",
  call_to_action: "SHOP_NOW",
  count: 5,
};
const run = (over: Partial<AdCopyInputT> = {}) => templateAdCopy(AdCopyInput.parse({ ...base, ...over }));
const key = (v: { headline: string; primary_text: string }) => `${v.headline}\n${v.primary_text}`;

describe("ad copy templates", () => {
  it("five variants within the limits, each headline and text different, the same every time", () => {
    const vs = run();
    expect(vs).toHaveLength(5);
    for (const v of vs) {
      expect(v.headline.length).toBeGreaterThan(0);
      expect(v.headline.length).toBeLessThanOrEqual(40);
      expect(v.primary_text.length).toBeLessThanOrEqual(500);
      expect(v.primary_text).not.toMatch(/\s[.,]|\.\.|undefined|null/);
    }
    expect(new Set(vs.map((v) => v.headline)).size).toBe(5);
    expect(new Set(vs.map((v) => v.primary_text)).size).toBe(5);
    expect(run()).toEqual(vs);
  });

  it("made of the product's facts, the brief's first sentence and the call to action", () => {
    const text = run().map((v) => `${v.headline} ${v.primary_text}`).join(" ");
    for (const part of ["Relaxed Linen Camp Shirt", "Atelier Aster", "sand and navy", "$49", "Young professionals in the city.", "Shop now", "for men"]) expect(text).toContain(part);
    expect(text).not.toContain("Summer linen that breathes");
    const learn = run({ call_to_action: "LEARN_MORE" }).map((v) => v.primary_text).join(" ");
    expect(learn).toContain("Learn more");
    expect(learn).not.toContain("Shop now");
  });

  it("missing facts leave their templates out instead of writing empty words", () => {
    const vs = run({ product: { title: "Scarf", productType: "", brand: "", colours: [], price: null, currencyCode: "USD", target_gender: "both" }, brief: "" });
    expect(vs).toHaveLength(5);
    for (const v of vs) {
      expect(v.primary_text).not.toMatch(/ by \.| from \.|\$|for men|in \./);
      expect(v.primary_text.length).toBeGreaterThan(5);
    }
    expect(new Set(vs.map(key)).size).toBe(5);
  });

  it("a long title is cut at a word for headlines; a long brief is cut in the text", () => {
    const title = "Oversized Double-Breasted Wool Blend Overcoat With Detachable Hood";
    const vs = run({ product: { ...(base.product as object), title } as AdCopyInputT["product"], brief: "word ".repeat(600) });
    for (const v of vs) {
      expect(v.headline.length).toBeLessThanOrEqual(40);
      expect(v.primary_text.length).toBeLessThanOrEqual(500);
    }
    expect(vs[0].headline).toBe("Oversized Double-Breasted Wool Blend…");
    expect(vs.map((v) => v.headline)).toContain("New in: Oversized Double-Breasted…");
  });

  it("copy offered before is avoided; once every template was used, variants stay distinct", () => {
    const first = run();
    const second = run({ avoid: first });
    for (const v of second) expect(first.map(key)).not.toContain(key(v));
    let offered = [...first, ...second];
    for (let i = 0; i < 20; i++) {
      const next = run({ avoid: offered.slice(-100) });
      expect(next).toHaveLength(5);
      expect(new Set(next.map(key)).size).toBe(5);
      for (const v of next) {
        expect(offered.slice(-100).map(key)).not.toContain(key(v));
        expect(v.headline.length).toBeLessThanOrEqual(40);
      }
      offered = [...offered, ...next];
    }
  });

  it("helpers: prices, cuts, brief sentences", () => {
    expect(adPrice("49.00", "USD")).toBe("$49");
    expect(adPrice("49.5", "EUR")).toBe("€49.50");
    expect(adPrice("10", "CHF")).toBe("10 CHF");
    expect(adPrice("0.00", "USD")).toBeNull();
    expect(clipWords("one two three", 40)).toBe("one two three");
    expect(clipWords("one two three four", 12)).toBe("one two…");
    expect(briefSentence("for runners! more")).toBe("For runners!");
    expect(briefSentence("no full stop")).toBe("No full stop.");
    expect(briefSentence("   ")).toBe("");
  });

  it("the local model answers through the port's validation; a bad input is refused", async () => {
    const lm = createLocalLanguageModel();
    const out = await lm.adCopy({ ...base, count: 3 });
    expect(out.provider).toBe("local");
    expect(out.variants).toEqual(run({ count: 3 }));
    await expect(lm.adCopy({ ...base, count: 6 })).rejects.toBeInstanceOf(LanguageModelError);
    await expect(lm.adCopy({ ...base, product: { ...(base.product as object), title: " " } as AdCopyInputT["product"] })).rejects.toThrow(/adCopy input is invalid: product.title/);
    const dup = withValidation({ ...lm, adCopy: async () => ({ variants: [{ headline: "A", primary_text: "B" }, { headline: "a", primary_text: "b" }], provider: "local" }) });
    await expect(dup.adCopy({ ...base, count: 2 })).rejects.toThrow(/variants must differ/);
  });
});

describe("ad copy, OpenAI-compatible adapter", () => {
  const answer = (content: string) => async () => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status: 200, headers: { "content-type": "application/json" } });
  const model = (f: () => Promise<Response>) => createOpenAiLanguageModel({ apiKey: "k", local: createLocalLanguageModel(), fetch: f as typeof fetch });

  it("keeps the model's variants, cut to the limits, and fills what is missing from the templates", async () => {
    const long = "A headline that goes on far longer than forty characters allow";
    const out = await model(answer(JSON.stringify({ variants: [{ headline: long, primary_text: "Linen for hot days. Shop now." }, { headline: "Dup", primary_text: "x" }, { headline: "dup", primary_text: "X" }] })))
      .adCopy({ ...base, count: 4 });
    expect(out.provider).toBe("openai");
    expect(out.variants).toHaveLength(4);
    expect(out.variants[0]).toEqual({ headline: clipWords(long, 40), primary_text: "Linen for hot days. Shop now." });
    expect(out.variants[1]).toEqual({ headline: "Dup", primary_text: "x" });
    expect(out.variants.slice(2)).toEqual(run({ count: 2, avoid: out.variants.slice(0, 2) }));
  });

  it("an answer that is not the JSON asked for gives the templates", async () => {
    const out = await model(answer("Sure! Here are some ideas...")).adCopy({ ...base, count: 2 });
    expect(out).toEqual({ variants: run({ count: 2 }), provider: "local" });
  });
});
