import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";

describe("test harness", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("starts from a migrated, empty database", async () => {
    expect(await app.database.db.user.count()).toBe(0);
    const res = await app.api("GET", "/products");
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual([]);
  });
});
