/**
 * The knowledge base's pure parts: the question's subject words, a product's context words, the
 * entries' embedding words, the quoted excerpt, tag normalisation; the local language model's
 * "advice" intent and its answers that quote and name the guides (app/providers/language-model).
 */
import { describe, expect, it } from "vitest";
import { normaliseKnowledgeTag, KnowledgeCreateBody, KnowledgeUpdateBody } from "../../app/contract/knowledge";
import { contextWordsOf, entryWords, excerptFor, questionWords } from "../../app/services/knowledge/retrieval.server";
import { templateReply, understandMessage } from "../../app/providers/language-model/local.server";
import { ReplyInput, emptySlots } from "../../app/providers/language-model/port";
import { DEMO_KNOWLEDGE } from "../../prisma/demo/knowledge";

describe("retrieval helpers", () => {
  it("a question's subject words leave out question and stop words", () => {
    expect(questionWords("How do I wash linen?")).toEqual(["wash", "linen"]);
    expect(questionWords("What's the best way to iron a silk blouse?")).toEqual(["iron", "silk", "blouse"]);
    expect(questionWords("how?")).toEqual([]);
  });

  it("a product's context: its materials (title, tags, material categories) and its garment type", () => {
    expect(contextWordsOf({ title: "Relaxed Linen Shirt", productType: "Shirts" }).sort()).toEqual(["linen", "shirt"]);
    expect(contextWordsOf({ title: "Slim Stretch Jeans", productType: "Jeans", tags: ["selvedge denim"] }).sort()).toEqual(["denim", "jean", "selvedge"]);
    expect(contextWordsOf({ title: "Crew Neck", productType: "Knitwear", materials: ["Cashmere"] }).sort()).toEqual(["cashmere", "knitwear"]);
    // Words inside other words are no material ("cottonwood" is not cotton).
    expect(contextWordsOf({ title: "Cottonwood Tee", productType: null })).toEqual([]);
  });

  it("an entry's words weigh the title most, then tags, then the opening of the content", () => {
    const words = entryWords({ title: "Caring for linen", tags: ["care", "dry-clean"], content: "Wash linen cool." });
    expect(words).toEqual([
      ["caring", 3],
      ["linen", 3],
      ["care", 2],
      ["dry", 2],
      ["clean", 2],
      ["wash", 0.5],
      ["linen", 0.5],
      ["cool", 0.5],
    ]);
  });

  it("the excerpt is the sentences that share most words with the question, in their order, within the limit", () => {
    const content = DEMO_KNOWLEDGE.find((e) => e.title === "Caring for linen")!.content;
    const x = excerptFor(content, "can I tumble dry linen?");
    expect(x).toContain("Tumble drying can shrink it");
    expect(x.length).toBeLessThanOrEqual(320);
    expect(excerptFor(content, "how do I wash linen")).toMatch(/^Wash linen at 30–40 °C/);
    // No word in common: the opening sentence.
    expect(excerptFor("First sentence here. Second one.", "zzz")).toBe("First sentence here.");
    expect(excerptFor("A".repeat(500), "a", 100).length).toBeLessThanOrEqual(100);
  });

  it("tags are stored lower case and hyphenated, without duplicates; a missing source in an edit keeps it", () => {
    expect(normaliseKnowledgeTag("  Dry clean ")).toBe("dry-clean");
    expect(normaliseKnowledgeTag("T-Shirts!")).toBe("t-shirts");
    expect(KnowledgeCreateBody.parse({ title: "T", content: "C", tags: ["Care", "care", " ", "Dry_clean"] }).tags).toEqual(["care", "dry-clean"]);
    expect(KnowledgeCreateBody.parse({ title: "T", content: "C", source: "" }).source).toBeNull();
    expect(KnowledgeUpdateBody.parse({ title: "T" }).source).toBeUndefined();
    expect(KnowledgeUpdateBody.parse({ source: "" }).source).toBeNull();
    expect(KnowledgeUpdateBody.safeParse({}).success).toBe(false);
  });

  it("the demo knowledge base: unique titles, every entry tagged", () => {
    const titles = DEMO_KNOWLEDGE.map((e) => e.title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
    for (const e of DEMO_KNOWLEDGE) {
      expect(e.tags.length, e.title).toBeGreaterThan(0);
      for (const t of e.tags) expect(normaliseKnowledgeTag(t)).toBe(t);
    }
  });
});

describe("the local language model and the knowledge base", () => {
  const intent = (message: string) => understandMessage({ message, product: null }, {}).intent;

  it.each([
    ["How do I wash linen?", "advice"],
    ["can I tumble dry this", "advice"],
    ["What is your return policy?", "advice"],
    ["do you ship to Canada", "advice"],
    ["how long does a refund take", "advice"],
    ["what is cashmere", "advice"],
    ["what should I wear to a summer wedding", "advice"],
    ["what's the difference between wool and merino", "advice"],
    ["I want to return my jeans", "advice"],
    ["I need to know how to wash silk", "advice"],
    // Shopping with a care word is still shopping.
    ["show me linen shirts that don't shrink", "find_products"],
    // Other intents keep their rules.
    ["Does this run small?", "size_help"],
    ["where is my order?", "order_status"],
    ["what goes with this?", "complete_the_look"],
    ["black jeans under 80", "find_products"],
  ])("%s → %s", (message, expected) => {
    expect(intent(message)).toBe(expected);
  });

  const reply = (input: Parameters<typeof ReplyInput.parse>[0]) => templateReply(ReplyInput.parse(input));
  const linen = { title: "Caring for linen", excerpt: "Wash linen at 30–40 °C on a gentle cycle.", source: "Care guide" };
  const fit = { title: "Jeans fit guide", excerpt: "Slim and skinny jeans run small.", source: null };

  it("advice quotes the best guide by title and names the others; without one it says so", () => {
    const one = reply({ message: "How do I wash linen?", intent: "advice", slots: emptySlots(), products: [], facts: { knowledge: [linen] } });
    expect(one.text).toBe('From our guide "Caring for linen": Wash linen at 30–40 °C on a gentle cycle.');
    const two = reply({ message: "How do I wash linen?", intent: "advice", slots: emptySlots(), products: [], facts: { knowledge: [linen, fit] } });
    expect(two.text).toMatch(/See also "Jeans fit guide"\.$/);
    expect(reply({ message: "How do I wash kevlar?", intent: "advice", slots: emptySlots(), products: [], facts: {} }).text).toMatch(/^I don't have a guide on that yet/);
  });

  it("size help adds the fit guide after the store's advice; unknown answers from a guide when one is cited", () => {
    const anchor = { id: "p1", title: "Slim Jean", productType: "Jeans", vendor: "V", price: "60", currencyCode: "USD", available: true };
    const withStore = reply({ message: "does it run small?", intent: "size_help", slots: emptySlots(), products: [], facts: { anchor, knowledge: [fit], sizeAdvice: { store: "Tidewater", recommendation: "Take one size up.", sizes: ["30"] } } });
    expect(withStore.text).toBe('Tidewater recommends: "Take one size up.". It comes in 30. From our guide "Jeans fit guide": Slim and skinny jeans run small.');
    const noStore = reply({ message: "does it run small?", intent: "size_help", slots: emptySlots(), products: [], facts: { anchor, knowledge: [fit], sizeAdvice: { store: "Tidewater", recommendation: null, sizes: [] } } });
    expect(noStore.text).toBe('Tidewater has not shared size advice for the Slim Jean. From our guide "Jeans fit guide": Slim and skinny jeans run small.');
    expect(reply({ message: "linen?", intent: "unknown", slots: emptySlots(), products: [], facts: { knowledge: [linen] } }).text).toContain('"Caring for linen"');
    expect(reply({ message: "zzz", intent: "unknown", slots: emptySlots(), products: [], facts: {} }).text).toMatch(/^Sorry/);
  });
});
