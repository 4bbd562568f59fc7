/**
 * Social post copy (issue 19): the local templates (caption per platform from the product's
 * facts, hashtags within each platform's limit) and the OpenAI-compatible adapter (the model's
 * posts cleaned and cut, the templates for a platform it skipped or an answer that is not JSON).
 */
import { describe, expect, it } from "vitest";
import { createLocalLanguageModel } from "../../app/providers/language-model/local.server";
import { createOpenAiLanguageModel } from "../../app/providers/language-model/openai.server";
import { SOCIAL_LIMITS, SocialsCopyInput, type SocialsCopyInput as Input } from "../../app/providers/language-model/port";
import { hashtagOf, singular, templateSocialsCopy } from "../../app/providers/language-model/socials-copy";

const base: Input = {
  product: { title: "Relaxed Linen Shirt", productType: "Shirts", brand: "Aster", store: "Aster Menswear", colours: ["Sand", "Navy"], materials: ["linen"], price: "49.00", currencyCode: "USD", target_gender: "menswear" },
  platforms: ["instagram", "tiktok", "pinterest", "facebook"],
};
const run = (over: Partial<Input> = {}) => templateSocialsCopy(SocialsCopyInput.parse({ ...base, ...over }));

describe("social post templates", () => {
  it("write each platform's caption from the product's facts, the same every time", () => {
    const posts = run();
    expect(posts.map((p) => p.platform)).toEqual(["instagram", "tiktok", "pinterest", "facebook"]);
    for (const p of posts) {
      expect(p.caption).toContain("Relaxed Linen Shirt");
      expect(p.caption.toLowerCase()).toContain("linen shirt in sand and navy");
      expect(p.caption).toContain("$49");
      expect(p.caption.length).toBeLessThanOrEqual(SOCIAL_LIMITS[p.platform].caption);
      expect(p.hashtags.length).toBeLessThanOrEqual(SOCIAL_LIMITS[p.platform].hashtags);
      expect(new Set(p.hashtags).size).toBe(p.hashtags.length);
    }
    expect(posts[0].caption).toMatch(/link in bio/);
    expect(posts[0].hashtags.slice(0, 5)).toEqual(["shirt", "linen", "astermenswear", "aster", "linenshirt"]);
    expect(posts[0].hashtags).toEqual(expect.arrayContaining(["menswear", "ootd"]));
    expect(run()).toEqual(posts);
  });

  it("read plural product types as one piece, but not jeans or trousers; no price, store or colour leaves no gap", () => {
    expect(["Coats", "Dresses", "Hoodies", "Jeans", "Trousers", "Knitwear", "Boots"].map(singular)).toEqual(["coat", "dress", "hoody", "jeans", "trousers", "knitwear", "boot"]);
    const [pin] = run({ platforms: ["pinterest"], product: { title: "Wide Jeans", productType: "Jeans" } });
    expect(pin.caption).toBe("Wide Jeans: jeans. Save it for your next outfit idea.");
    expect(hashtagOf("Café Crème & Co.")).toBe("cafécrèmeco");
  });
});

describe("social posts, OpenAI-compatible adapter", () => {
  const answer = (content: string) => async () => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status: 200, headers: { "content-type": "application/json" } });
  const model = (f: () => Promise<Response>) => createOpenAiLanguageModel({ apiKey: "k", local: createLocalLanguageModel(), fetch: f as typeof fetch });

  it("keeps the model's posts (hashtags cleaned, cut to the platform's count) and fills a skipped platform from the templates", async () => {
    const tags = ["#Linen", "summer style", "linen", ...Array.from({ length: 10 }, (_, i) => `tag${i}`)];
    const out = await model(answer(JSON.stringify({ posts: [{ platform: "TikTok", caption: "Linen season is here.", hashtags: tags }] }))).socialsCopy({ ...base, platforms: ["tiktok", "facebook"] });
    expect(out.provider).toBe("openai");
    expect(out.posts[0]).toEqual({ platform: "tiktok", caption: "Linen season is here.", hashtags: ["linen", "summerstyle", "tag0", "tag1", "tag2", "tag3", "tag4", "tag5"] });
    expect(out.posts[1]).toEqual(run({ platforms: ["facebook"] })[0]);
  });

  it("an answer that is not the JSON asked for gives the templates", async () => {
    const out = await model(answer("Here you go!")).socialsCopy({ ...base, platforms: ["instagram"] });
    expect(out).toEqual({ posts: run({ platforms: ["instagram"] }), provider: "local" });
  });
});
