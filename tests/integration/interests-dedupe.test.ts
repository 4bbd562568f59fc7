/**
 * Duplicate interest tags (issue 20 #7: "t-shirt" / "t-shirts"): one interest per meaning in what
 * a shopper saves, in the suggestions made from product tags, and in interests already stored
 * (the data migration 20261128031500_merge_duplicate_interests, checked against the same rule).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseInterests } from "../../app/lib/interests";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct } from "./products-fixtures";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  // Product tags spelled several ways: the suggestions must offer each interest once.
  await createProduct(db, { n: 1, title: "Heavy Tee", productType: "T-Shirts", tags: ["t-shirt", "cotton"], companion: false });
  await createProduct(db, { n: 2, title: "Pocket Tee", productType: "T-Shirts", tags: ["t-shirts", "cotton"], companion: false });
  await createProduct(db, { n: 3, title: "Boxy Tee", productType: "T-Shirts", tags: ["T-Shirt", "Cottons"], companion: false });
  await createProduct(db, { n: 4, title: "Slip Dress", productType: "Dresses", tags: ["dresses"], companion: false });
}, 120_000);
afterAll(() => app?.close());

describe("interests: one per meaning", () => {
  it("saving t-shirt, T-Shirts and t shirt keeps one; suggestions offer t-shirt once, in the shopper's spelling", async () => {
    const { token } = await app.createUser();
    const saved = await app.api("PATCH", "/users/style-preferences", { token, body: { interests: "menswear,T-Shirts,t-shirt,t shirt,dress,Dresses" } });
    expect(saved.status).toBe(200);
    expect(saved.body.interestList).toEqual(["menswear", "t-shirts", "dress"]);
    expect(saved.body.interests).toBe("menswear,t-shirts,dress");
    const s: string[] = saved.body.suggestions;
    expect(s.filter((t) => /^t.?shirts?$/.test(t))).toEqual(["t-shirts"]);
    expect(s.filter((t) => /^cottons?$/.test(t))).toHaveLength(1);
    expect(s.filter((t) => /^dress(es)?$/.test(t))).toEqual(["dress"]);
    expect(new Set(s).size).toBe(s.length);

    const other = await app.createUser();
    const fresh = await app.api("GET", "/users/style-preferences", { token: other.token });
    expect(fresh.status).toBe(200);
    // The spelling most used among the products: "t-shirt" (two of three tags, case aside).
    expect(fresh.body.suggestions.filter((t: string) => /^t.?shirts?$/.test(t))).toEqual(["t-shirt"]);
  });

  it("refuses bad input and anonymous callers", async () => {
    const { token } = await app.createUser();
    expect((await app.api("PATCH", "/users/style-preferences", { token, body: {} })).status).toBe(400);
    expect((await app.api("GET", "/users/style-preferences")).status).toBe(401);
  });

  it("the migration merges duplicates already stored, as parseInterests does, and leaves other metadata alone", async () => {
    const db = app.database.db;
    const stored = [
      "t-shirt,T-Shirts, t shirt ,linen",
      "Menswear,street wear,Streetwear,hoodies,hoodie,jeans,jean",
      "linen,wool",
      "",
    ];
    const users = [];
    for (const interests of stored) {
      const u = await app.createUser();
      await db.user.update({ where: { id: u.id }, data: { metadata: { interests, origin: "test" } } });
      users.push(u.id);
    }
    const noInterests = await app.createUser();
    await db.user.update({ where: { id: noInterests.id }, data: { metadata: { origin: "x" } } });

    const sql = fs.readFileSync(path.join(process.cwd(), "prisma/migrations/20261128031500_merge_duplicate_interests/migration.sql"), "utf8");
    await db.$executeRawUnsafe(sql);

    for (let i = 0; i < stored.length; i++) {
      const u = await db.user.findUniqueOrThrow({ where: { id: users[i] } });
      const m = u.metadata as { interests: string; origin: string };
      expect(m.origin).toBe("test");
      expect(m.interests, stored[i]).toBe(stored[i] === "" ? "" : parseInterests(stored[i]).join(","));
    }
    expect((await db.user.findUniqueOrThrow({ where: { id: users[0] } })).metadata).toEqual({ interests: "t-shirt,linen", origin: "test" });
    expect((await db.user.findUniqueOrThrow({ where: { id: users[1] } })).metadata).toMatchObject({ interests: "menswear,street wear,hoodies,jeans" });
    expect((await db.user.findUniqueOrThrow({ where: { id: noInterests.id } })).metadata).toEqual({ origin: "x" });
  });
});
