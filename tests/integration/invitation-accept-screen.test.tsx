/**
 * The invitation page (app/routes/app_.invitations.accept.tsx) through its loader, action and
 * server render in local mode: who invited whom for which role, a link that cannot be used said
 * plainly, choosing a password for a new account (twice, with the registration's rules) and
 * landing in the admin signed in, an existing account accepted with its own password only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { inviteStaff } from "../../app/services/staff-invitations.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm, staffRequest } from "../helpers/route";

type Route = typeof import("../../app/routes/app_.invitations.accept");
let route: Route;
let app: TestApp;
let boss: { id: string; token: string; email: string | null };

const STRONG = "Quartz-Orchard-Ribbon-58";

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app_.invitations.accept");
  boss = await app.createUser({ role: "ADMIN", permissions: ["admins.manage"], email: "boss@staff.test", firstName: "Bea" });
});
afterAll(() => app?.close());

async function invite(email: string, extra: { role?: "ADMIN" | "VENDOR"; vendor_id?: string } = {}) {
  const inviter = await app.database.db.user.findUniqueOrThrow({ where: { id: boss.id } });
  const r = await inviteStaff({ db: app.database.db }, inviter, { email, first_name: "Ivo", last_name: "Newman", role: extra.role ?? "ADMIN", vendor_id: extra.vendor_id, send_email: false });
  return new URL(r.acceptUrl!, "http://localhost").searchParams.get("token")!;
}

const load = (token: string, bearer: string | null = null) =>
  route.loader({ request: staffRequest(`/app/invitations/accept?token=${encodeURIComponent(token)}`, bearer), params: {}, context: {} });
const submit = (fields: Record<string, string>, bearer: string | null = null) =>
  route.action({ request: staffForm("/app/invitations/accept", bearer, fields), params: {}, context: { clientIp: "10.0.0.1" } });
const render = async (token: string, bearer: string | null = null) =>
  renderRoute({ id: "routes/app_.invitations.accept", path: "/app/invitations/accept", url: `/app/invitations/accept?token=${encodeURIComponent(token)}`, data: await load(token, bearer), Component: route.default });

/** The status and body of an action's answer (`data()` or a Response). */
function answer(r: unknown): { status: number; body: unknown; headers: Headers } {
  if (r instanceof Response) return { status: r.status, body: null, headers: r.headers };
  const d = r as { data: unknown; init?: { status?: number; headers?: HeadersInit } };
  return { status: d.init?.status ?? 200, body: d.data, headers: new Headers(d.init?.headers) };
}

describe("the invitation page", () => {
  it("shows who invited whom, for which role, and asks a new invitee to choose a password", async () => {
    const token = await invite("newbie@staff.test");
    const data = await load(token);
    expect(data).toMatchObject({ ok: true, invitation: { email: "newbie@staff.test", invited_by: "Bea", role: "ADMIN", account: "new" } });
    const html = await render(token);
    expect(html).toContain("Bea invited <strong>newbie@staff.test</strong> to join as admin.");
    expect(html).toContain("Choose a password for newbie@staff.test.");
    expect(html).toContain("Password again");
    expect(route.headers({} as never)).toMatchObject({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  });

  it("says plainly why a link cannot be used", async () => {
    expect(await load("made-up")).toEqual({ ok: false, error: "This invitation link is not valid: check that you opened the whole link from the email" });
    const token = await invite("expired@staff.test");
    await app.database.db.staffInvitation.updateMany({ where: { email: "expired@staff.test" }, data: { expires_at: new Date(Date.now() - 60_000) } });
    const html = await render(token);
    expect(html).toContain("This invitation cannot be used");
    expect(html).toMatch(/This invitation expired on \d{4}-\d{2}-\d{2}: ask the admin who invited you to send it again/);
    expect(html).not.toContain("Accept invitation");
  });

  it("a new invitee chooses a password (twice, by the registration's rules) and lands in the admin, signed in", async () => {
    const token = await invite("newbie2@staff.test");
    const differ = answer(await submit({ token, new_account: "true", password: STRONG, password_confirm: "something-else" }));
    expect(differ).toMatchObject({ status: 400, body: { error: "The two passwords differ: type the same password twice" } });
    const common = answer(await submit({ token, new_account: "true", password: "password1234", password_confirm: "password1234" }));
    expect(common.status).toBe(400);
    expect(await app.database.db.user.findUnique({ where: { email: "newbie2@staff.test" } })).toBeNull();

    const ok = await submit({ token, new_account: "true", password: STRONG, password_confirm: STRONG });
    expect(ok).toBeInstanceOf(Response);
    const res = ok as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app");
    expect(res.headers.get("set-cookie")).toContain("fd_session=");
    expect(await app.database.db.user.findUniqueOrThrow({ where: { email: "newbie2@staff.test" } })).toMatchObject({ role: "ADMIN", first_name: "Ivo" });

    // The link is spent.
    expect(await load(token)).toEqual({ ok: false, error: "This invitation has already been accepted" });
  });

  it("an existing account: its password, not another account's session", async () => {
    await app.createUser({ email: "has-account@example.test", password: "has-account-password" });
    const other = await app.createUser({ email: "someone-else@example.test", password: "someone-elses-password" });
    const vendor = await app.database.db.vendor.create({ data: { name: "Weft Studio", handle: "weft-studio" } });
    const token = await invite("has-account@example.test", { role: "VENDOR", vendor_id: vendor.id });

    const html = await render(token, other.token);
    expect(html).toContain("to join as vendor user of Weft Studio.");
    expect(html).toContain("You are signed in as someone-else@example.test. This invitation is for has-account@example.test");
    expect(html).toContain("Password of has-account@example.test");

    const refused = answer(await submit({ token, new_account: "false" }, other.token));
    expect(refused).toMatchObject({ status: 403 });
    const wrong = answer(await submit({ token, new_account: "false", password: "someone-elses-password" }, other.token));
    expect(wrong).toMatchObject({ status: 401, body: { error: "Wrong password for has-account@example.test" } });
    expect((await app.database.db.user.findUniqueOrThrow({ where: { email: "has-account@example.test" } })).role).toBe("SHOPPER");
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: other.id } })).role).toBe("SHOPPER");

    const ok = (await submit({ token, new_account: "false", password: "has-account-password" }, other.token)) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/app/vendor");
    expect(await app.database.db.user.findUniqueOrThrow({ where: { email: "has-account@example.test" } })).toMatchObject({ role: "VENDOR", vendor_id: vendor.id });
  });
});
