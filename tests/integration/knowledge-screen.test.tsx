/**
 * The Knowledge base admin screen (app/routes/app.knowledge.tsx) through its loader and action in
 * local mode: the knowledge.manage guard, the list with search and tag filter, create, edit and
 * delete with their refusals, "Try a question", the navigation entry, and the page server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { seedKnowledgeDemo } from "../../prisma/demo/knowledge";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, renderRoute, staffForm, staffRequest } from "../helpers/route";

type ScreenModule = typeof import("../../app/routes/app.knowledge");
let screen: ScreenModule;
let app: TestApp;
let manager: { token: string };
let editor: { token: string };

const load = (token: string | null, query = "") => screen.loader({ request: staffRequest(`/app/knowledge${query}`, token), params: {}, context: {} });
const act = (token: string | null, fields: Record<string, string>) => screen.action({ request: staffForm("/app/knowledge", token, fields), params: {}, context: {} });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  screen = await import("../../app/routes/app.knowledge");
  manager = await app.createUser({ role: "ADMIN", permissions: ["knowledge.manage"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  await seedKnowledgeDemo(app.ctx.db);
}, 120_000);
afterAll(() => app?.close());

describe("knowledge screen", () => {
  it("needs knowledge.manage (403 for other admins, login when signed out); the navigation shows it to those who have it", async () => {
    expect(await refusal(load(editor.token))).toBe(403);
    expect(await refusal(load(null))).toBe("login");
    expect(await refusal(act(editor.token, { intent: "create", title: "X", content: "Y" }))).toBe(403);
    expect(navigationFor({ role: "ADMIN", permissions: ["knowledge.manage"] }).map((n) => n.url)).toContain("/app/knowledge");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/knowledge");
  });

  it("lists with search and tag filter", async () => {
    const all = await load(manager.token);
    expect(all.page.total).toBeGreaterThan(25);
    expect(all.page.items).toHaveLength(20);
    const care = await load(manager.token, "?tag=care&q=silk");
    expect(care.query).toEqual({ q: "silk", tag: "care" });
    expect(care.page.items.map((e) => e.title)).toContain("Caring for silk");
    for (const e of care.page.items) expect(e.tags).toContain("care");
    // A malformed page number is the first page, not an error.
    expect((await load(manager.token, "?skip=abc")).page.skip).toBe(0);
  });

  it("create, edit and delete, with the service's refusals shown", async () => {
    const created = await act(manager.token, { intent: "create", title: "Caring for corduroy", content: "Wash corduroy inside out.", tags: "Care, corduroy", source: "" });
    expect(created).toEqual({ ok: true, message: 'Created "Caring for corduroy".' });
    const row = await app.database.db.knowledgeEntry.findFirstOrThrow({ where: { title: "Caring for corduroy" } });
    expect(row.tags).toEqual(["care", "corduroy"]);
    expect(row.source).toBeNull();

    expect(await act(manager.token, { intent: "create", title: "caring for CORDUROY", content: "Again.", tags: "" })).toEqual({ ok: false, error: "A knowledge entry with this title already exists" });
    const invalid = await act(manager.token, { intent: "create", title: "", content: "No title", tags: "" });
    expect(invalid.ok).toBe(false);

    expect(await act(manager.token, { intent: "update", id: row.id, title: "Caring for corduroy", content: "Wash corduroy inside out, cool.", tags: "care, corduroy, washing", source: "Mill" })).toEqual({
      ok: true,
      message: 'Saved "Caring for corduroy".',
    });
    expect((await app.database.db.knowledgeEntry.findUniqueOrThrow({ where: { id: row.id } })).tags).toEqual(["care", "corduroy", "washing"]);
    expect(await act(manager.token, { intent: "update", id: "missing", title: "T", content: "C", tags: "", source: "" })).toEqual({ ok: false, error: "Knowledge entry not found" });

    expect(await act(manager.token, { intent: "delete", id: row.id })).toEqual({ ok: true, message: "Entry deleted." });
    expect(await act(manager.token, { intent: "delete", id: row.id })).toEqual({ ok: false, error: "Knowledge entry not found" });
    expect(await act(manager.token, { intent: "nonsense" })).toEqual({ ok: false, error: "Unknown action" });
  });

  it("try a question: the ranked entries, the cited ones marked", async () => {
    const r = await act(manager.token, { intent: "try", question: "how often should I wash my jeans", context: "" });
    if (!r.ok || !("hits" in r)) throw new Error(JSON.stringify(r));
    expect(r.hits[0]).toMatchObject({ entry: { title: "Caring for denim" }, cited: true });
    expect(r.message).toBe("The assistant would cite the entries marked Cited.");
    const none = await act(manager.token, { intent: "try", question: "asdfgh qwerty", context: "" });
    if (!none.ok || !("hits" in none)) throw new Error(JSON.stringify(none));
    expect(none.message).toBe("The assistant would cite no entry for this question.");
    expect((await act(manager.token, { intent: "try", question: "", context: "" })).ok).toBe(false);
  });

  it("renders the list with its tag filter and the try-a-question card", async () => {
    const data = await load(manager.token, "?tag=policy");
    const html = await renderRoute({ id: "routes/app.knowledge", path: "/app/knowledge", url: "/app/knowledge?tag=policy", data, Component: screen.default });
    expect(html).toContain("Knowledge base");
    expect(html).toContain("Returns and refunds policy");
    expect(html).not.toContain("Caring for linen");
    expect(html).toContain("Try a question");
    expect(html).toContain("Add entry");
    expect(html).toContain("1–5 of 5");
  });
});
