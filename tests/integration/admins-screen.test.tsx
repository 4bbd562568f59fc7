/**
 * The Admin users screen (app/routes/app.admins.tsx) through its loader and action in local mode:
 * the admins.manage guard, the staff list with its role tabs (shoppers never listed, vendors with
 * their vendor's name), inviting admins and vendor users (by email or with a link to pass on,
 * pending invitations listed, sent again and withdrawn, an existing shopper left as they are,
 * every refusal with the server's message), editing permissions (saved, unknown
 * permission, unknown user, a vendor, removing one's own admins.manage), an unknown intent, and
 * the page server-rendered with Polaris.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { DEFAULT_ADMIN_PERMISSIONS, PermissionNames } from "../../app/contract/permissions";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type Route = typeof import("../../app/routes/app.admins");
let route: Route;
let app: TestApp;
let boss: { id: string; token: string; email: string | null };
let editor: { id: string; token: string; email: string | null };
let vendorUser: { id: string; token: string; email: string | null };
let shopper: { id: string; token: string; email: string | null };
let atelier: { id: string };
let bazaar: { id: string };

async function load(query = "", token: string | null = boss.token) {
  const data = await route.loader({ request: req(`/app/admins${query}`, token), params: {}, context: {} });
  if (!data) throw new Error("the page's own load answered null");
  return data;
}
const act = (fields: Record<string, string> | [string, string][], token: string | null = boss.token) => route.action({ request: form("/app/admins", token, fields), params: {}, context: {} });
const renderPage = async (query = "") => renderRoute({ id: "routes/app.admins", path: "/app/admins", url: `/app/admins${query}`, data: await load(query), Component: route.default });
const create = (fields: Record<string, string>) => act({ intent: "create", first_name: "Nina", last_name: "Staff", role: "ADMIN", send_email: "false", ...fields });
const userByEmail = (email: string) => app.database.db.user.findUniqueOrThrow({ where: { email } });
const invitations = (to: string) => app.database.db.emailOutbox.findMany({ where: { to, kind: "staff_invitation" } });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.admins");
  // Created in an order different from the list's (by name), to see the sort.
  bazaar = await app.database.db.vendor.create({ data: { name: "Bazaar Basics", handle: "bazaar-basics" } });
  atelier = await app.database.db.vendor.create({ data: { name: "Atelier Nord", handle: "atelier-nord" } });
  boss = await app.createUser({ role: "ADMIN", permissions: ["admins.manage"], email: "boss@staff.test", firstName: "Bea" });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "media.manage"], email: "editor@staff.test" });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: atelier.id, email: "vendor@staff.test" });
  shopper = await app.createUser({ role: "SHOPPER", email: "shopper@example.test" });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs admins.manage: 403 for other admins and vendors on the page and its action; login when signed out", async () => {
    for (const token of [editor.token, vendorUser.token]) {
      const res = await thrown(load("", token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
      const refused = await thrown(act({ intent: "create", email: "sneaky@staff.test", first_name: "S", last_name: "N", role: "ADMIN", send_email: "false" }, token));
      expect(refused.status).toBe(403);
      expect((await thrown(act([["intent", "permissions"], ["userId", editor.id], ["permissions", "admins.manage"]], token))).status).toBe(403);
    }
    const out = await thrown(load("?role=VENDOR", null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fadmins%3Frole%3DVENDOR");
    expect((await thrown(act({ intent: "create", email: "anon@staff.test", first_name: "A", last_name: "N", role: "ADMIN" }, null))).status).toBe(302);
    // A shopper is not staff: sent to the login as well.
    expect((await thrown(load("", shopper.token))).status).toBe(302);
    expect(await app.database.db.user.count({ where: { email: { in: ["sneaky@staff.test", "anon@staff.test"] } } })).toBe(0);
    expect(await app.database.db.staffInvitation.count({ where: { email: { in: ["sneaky@staff.test", "anon@staff.test"] } } })).toBe(0);
    for (const token of [editor.token, vendorUser.token]) {
      expect((await thrown(act({ intent: "resend", invitationId: "x" }, token))).status).toBe(403);
      expect((await thrown(act({ intent: "revoke", invitationId: "x" }, token))).status).toBe(403);
    }
    expect((await userByEmail("editor@staff.test")).permissions).toEqual(["catalog.edit", "media.manage"]);
  });

  it("shows Admin users in the navigation only with admins.manage", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["admins.manage"] }).map((n) => n.url)).toContain("/app/admins");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/admins");
  });
});

describe("the list", () => {
  it("lists vendors and admins (never shoppers), with vendors to link by name", async () => {
    const data = await load();
    expect(data.tab).toBe("all");
    expect(data.vendors).toEqual([
      { id: atelier.id, name: "Atelier Nord" },
      { id: bazaar.id, name: "Bazaar Basics" },
    ]);
    // By role in the schema's enum order (VENDOR before ADMIN), then by email.
    expect(data.users).toEqual([
      { id: vendorUser.id, email: "vendor@staff.test", name: "", role: "VENDOR", permissions: [], vendorName: "Atelier Nord" },
      { id: boss.id, email: "boss@staff.test", name: "Bea", role: "ADMIN", permissions: ["admins.manage"], vendorName: null },
      { id: editor.id, email: "editor@staff.test", name: "", role: "ADMIN", permissions: ["catalog.edit", "media.manage"], vendorName: null },
    ]);
  });

  it("filters by role tab; an unknown tab shows everyone", async () => {
    const admins = await load("?role=ADMIN");
    expect(admins.tab).toBe("ADMIN");
    expect(admins.users.map((u) => u.email)).toEqual(["boss@staff.test", "editor@staff.test"]);
    const vendors = await load("?role=VENDOR");
    expect(vendors.tab).toBe("VENDOR");
    expect(vendors.users.map((u) => u.email)).toEqual(["vendor@staff.test"]);
    const other = await load("?role=SHOPPER");
    expect(other.tab).toBe("all");
    expect(other.users).toHaveLength(3);
  });

  it("renders the table with roles, permission counts and vendor names", async () => {
    const html = await renderPage();
    expect(html).toContain("Admin users");
    expect(html).toContain("Add staff user");
    expect(html).toContain("All staff");
    for (const email of ["boss@staff.test", "editor@staff.test", "vendor@staff.test"]) expect(html).toContain(email);
    expect(html).not.toContain("shopper@example.test");
    expect(html).toContain(`1 of ${PermissionNames.length} permissions`);
    expect(html).toContain(`2 of ${PermissionNames.length} permissions`);
    expect(html).toContain("Atelier Nord");
    expect(html.match(/Edit permissions/g)).toHaveLength(2);
    const vendorsTab = await renderPage("?role=VENDOR");
    expect(vendorsTab).toContain("vendor@staff.test");
    expect(vendorsTab).not.toContain("boss@staff.test");
  });
});

describe("inviting staff users", () => {
  it("invites an admin with the default permissions by email: listed as pending until accepted", async () => {
    const r = await act({ intent: "create", email: "  New.Admin@Staff.test ", first_name: "Nina", last_name: "Admin", role: "ADMIN", vendor_id: "", send_email: "true" });
    expect(r).toEqual({ ok: true, message: expect.stringMatching(/^Invitation sent to new\.admin@staff\.test, valid until \d{4}-\d{2}-\d{2}\. They get access once they accept it\.$/) });
    // No account yet: the invitee makes it on accepting.
    expect(await app.database.db.user.findUnique({ where: { email: "new.admin@staff.test" } })).toBeNull();
    const invitation = await app.database.db.staffInvitation.findFirstOrThrow({ where: { email: "new.admin@staff.test" } });
    expect(invitation).toMatchObject({ role: "ADMIN", first_name: "Nina", last_name: "Admin", vendor_id: null, invited_by_id: boss.id, invited_by_name: "Bea" });
    expect([...invitation.permissions].sort()).toEqual([...DEFAULT_ADMIN_PERMISSIONS].sort());
    expect(invitation.permissions).not.toContain("admins.manage");
    const mail = await invitations("new.admin@staff.test");
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe("You are invited to Fashion Discovery");
    const data = await load("?role=ADMIN");
    expect(data.users.map((u) => u.email)).not.toContain("new.admin@staff.test");
    expect(data.invitations).toEqual([expect.objectContaining({ id: invitation.id, email: "new.admin@staff.test", name: "Nina Admin", role: "ADMIN", status: "pending", invitedBy: "Bea", emailed: true })]);
    const html = await renderPage();
    expect(html).toContain("Pending invitations");
    expect(html).toContain("new.admin@staff.test");
    expect(html).toContain(invitation.expires_at.toISOString().slice(0, 10));
    expect(html).toContain("Withdraw");
  });

  it("invites a vendor user linked to its vendor, without an email when told so: the link is for the admin to pass on", async () => {
    const r = await create({ email: "seller@staff.test", role: "VENDOR", vendor_id: bazaar.id, send_email: "false" });
    expect(r).toMatchObject({ ok: true, message: expect.stringContaining("Invitation created for seller@staff.test"), acceptUrl: expect.stringContaining("/app/invitations/accept?token=") });
    expect(await app.database.db.user.findUnique({ where: { email: "seller@staff.test" } })).toBeNull();
    expect(await invitations("seller@staff.test")).toEqual([]);
    const row = (await load("?role=VENDOR")).invitations.find((i) => i.email === "seller@staff.test");
    expect(row).toMatchObject({ role: "VENDOR", vendorName: "Bazaar Basics", emailed: false });
    expect((await load("?role=ADMIN")).invitations.map((i) => i.email)).not.toContain("seller@staff.test");
  });

  it("leaves an existing shopper's account as it is", async () => {
    const before = await userByEmail("shopper@example.test");
    const r = await create({ email: "shopper@example.test" });
    expect(r).toMatchObject({ ok: true });
    expect(await userByEmail("shopper@example.test")).toEqual(before);
    expect(before.role).toBe("SHOPPER");
  });

  it("sends an invitation again with a new link, and withdraws one", async () => {
    const invitation = await app.database.db.staffInvitation.findFirstOrThrow({ where: { email: "new.admin@staff.test" } });
    const again = await act({ intent: "resend", invitationId: invitation.id, send_email: "true" });
    expect(again).toMatchObject({ ok: true, message: expect.stringMatching(/^Invitation sent again to new\.admin@staff\.test, valid until /) });
    expect(await invitations("new.admin@staff.test")).toHaveLength(2);
    const link = await act({ intent: "resend", invitationId: invitation.id, send_email: "false" });
    expect(link).toMatchObject({ ok: true, acceptUrl: expect.stringContaining("token=") });
    expect((await app.database.db.staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).token_hash).not.toBe(invitation.token_hash);

    expect(await act({ intent: "revoke", invitationId: invitation.id })).toEqual({ ok: true, message: "Invitation to new.admin@staff.test withdrawn." });
    expect((await load()).invitations.map((i) => i.email)).not.toContain("new.admin@staff.test");
    expect(await act({ intent: "resend", invitationId: invitation.id })).toEqual({ ok: false, error: "This invitation was withdrawn by an admin" });
    expect(await act({ intent: "revoke", invitationId: "00000000-0000-0000-0000-000000000000" })).toEqual({ ok: false, error: "Invitation not found" });
  });

  it("refuses bad input and conflicts with the server's message", async () => {
    expect(await create({ email: "not-an-email" })).toEqual({ ok: false, error: "email: Enter a valid email address" });
    const noName = await create({ email: "noname@staff.test", first_name: "" });
    expect(noName.ok).toBe(false);
    expect(noName).toMatchObject({ error: "first_name: Enter a first name" });
    const badRole = await create({ email: "role@staff.test", role: "OWNER" });
    expect(badRole).toMatchObject({ ok: false, error: expect.stringMatching(/^role: /) });
    expect(await create({ email: "vend@staff.test", role: "VENDOR" })).toEqual({ ok: false, error: "vendor_id is required for a vendor user" });
    expect(await create({ email: "vend@staff.test", role: "VENDOR", vendor_id: "00000000-0000-0000-0000-000000000000" })).toEqual({ ok: false, error: "Vendor not found" });
    expect(await create({ email: "editor@staff.test" })).toEqual({ ok: false, error: "An account with this email already exists" });
    expect(await create({ email: "seller@staff.test", role: "VENDOR", vendor_id: bazaar.id })).toEqual({ ok: false, error: "An invitation to this email is already pending: send it again or withdraw it" });
    expect(await app.database.db.staffInvitation.count({ where: { email: { in: ["noname@staff.test", "role@staff.test", "vend@staff.test"] } } })).toBe(0);
    expect((await userByEmail("editor@staff.test")).permissions).toEqual(["catalog.edit", "media.manage"]);
  });
});

describe("editing permissions", () => {
  it("replaces an admin's permissions (duplicates dropped)", async () => {
    const r = await act([["intent", "permissions"], ["userId", editor.id], ["permissions", "reviews.moderate"], ["permissions", "orders.manage"], ["permissions", "reviews.moderate"]]);
    expect(r).toEqual({ ok: true, message: "Permissions saved." });
    expect((await userByEmail("editor@staff.test")).permissions).toEqual(["reviews.moderate", "orders.manage"]);
    // The list shows the new set.
    const row = (await load()).users.find((u) => u.id === editor.id)!;
    expect(row.permissions).toEqual(["reviews.moderate", "orders.manage"]);
  });

  it("clears every permission when none is sent", async () => {
    expect(await act([["intent", "permissions"], ["userId", editor.id]])).toEqual({ ok: true, message: "Permissions saved." });
    expect((await userByEmail("editor@staff.test")).permissions).toEqual([]);
  });

  it("refuses an unknown permission, an unknown user, a vendor and removing one's own admins.manage", async () => {
    expect(await act([["intent", "permissions"], ["userId", editor.id], ["permissions", "catalog.edit"], ["permissions", "root"]])).toEqual({ ok: false, error: "Unknown permission" });
    expect(await act([["intent", "permissions"], ["userId", "00000000-0000-0000-0000-000000000000"], ["permissions", "catalog.edit"]])).toEqual({ ok: false, error: "User not found" });
    expect(await act([["intent", "permissions"], ["userId", vendorUser.id], ["permissions", "catalog.edit"]])).toEqual({ ok: false, error: "Permissions apply to admin users only" });
    expect(await act([["intent", "permissions"], ["userId", boss.id], ["permissions", "catalog.edit"]])).toEqual({ ok: false, error: "You cannot remove your own admins.manage permission" });
    expect((await userByEmail("boss@staff.test")).permissions).toEqual(["admins.manage"]);
    expect((await userByEmail("editor@staff.test")).permissions).toEqual([]);
    expect((await userByEmail("vendor@staff.test")).permissions).toEqual([]);
  });

  it("lets an admin keep admins.manage while adding others to their own account", async () => {
    expect(await act([["intent", "permissions"], ["userId", boss.id], ["permissions", "admins.manage"], ["permissions", "catalog.edit"]])).toEqual({ ok: true, message: "Permissions saved." });
    expect((await userByEmail("boss@staff.test")).permissions).toEqual(["admins.manage", "catalog.edit"]);
  });

  it("answers an unknown intent", async () => {
    expect(await act({ intent: "delete", userId: editor.id })).toEqual({ ok: false, error: "Unknown action" });
    expect(await act({})).toEqual({ ok: false, error: "Unknown action" });
  });
});
