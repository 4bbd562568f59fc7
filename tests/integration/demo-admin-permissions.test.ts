/**
 * A demo database seeded before a permission existed (e.g. `apikeys.manage`): at start in local
 * mode (boot → seedDemoDataIfEmpty on a non-empty database) the demo admin gets every permission
 * it lacks and keeps the ones it has; other users are not touched; a later start changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PermissionNames } from "../../app/contract/permissions";
import { ensureDemoAdminPermissions, seedDemoDataIfEmpty } from "../../prisma/demo/seed-demo.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 120_000);
afterAll(() => app?.close());

const OLD_DEMO_PERMISSIONS = PermissionNames.filter((p) => p !== "apikeys.manage");

describe("demo admin permissions on an existing demo database", () => {
  it("grants the demo admin every permission at start; other admins, vendors and shoppers are unchanged", async () => {
    const db = app.database.db;
    const admin = await app.createUser({ role: "ADMIN", email: "admin@demo.local", permissions: OLD_DEMO_PERMISSIONS });
    const other = await app.createUser({ role: "ADMIN", email: "ops@example.test", permissions: ["catalog.edit"] });
    const shopper = await app.createUser({ email: "shopper@demo.local" });
    const before = await db.user.findMany({ where: { id: { in: [other.id, shopper.id] } }, orderBy: { id: "asc" } });

    expect((await app.api("GET", "/admin/api-keys", { token: admin.token })).status).toBe(403);

    const report = await seedDemoDataIfEmpty(db, { uploadsDir: app.dataDir });
    expect(report.created).toBe(false);

    const after = await db.user.findUniqueOrThrow({ where: { id: admin.id } });
    expect([...after.permissions].sort()).toEqual([...PermissionNames].sort());
    expect(after.permissions.slice(0, OLD_DEMO_PERMISSIONS.length)).toEqual(OLD_DEMO_PERMISSIONS);
    expect(await db.user.findMany({ where: { id: { in: [other.id, shopper.id] } }, orderBy: { id: "asc" } })).toEqual(before);
    expect((await app.api("GET", "/admin/api-keys", { token: admin.token })).status).toBe(200);
    expect((await app.api("GET", "/admin/api-keys", { token: other.token })).status).toBe(403);

    // Idempotent: a second start adds nothing and writes nothing.
    const updatedAt = after.updated_at;
    expect(await ensureDemoAdminPermissions(db)).toEqual([]);
    expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).updated_at).toEqual(updatedAt);
  });

  it("does nothing without a demo admin, or when admin@demo.local is not an admin", async () => {
    const db = app.database.db;
    await db.user.deleteMany({ where: { email: "admin@demo.local" } });
    expect(await ensureDemoAdminPermissions(db)).toEqual([]);
    const notAdmin = await app.createUser({ role: "SHOPPER", email: "admin@demo.local" });
    expect(await ensureDemoAdminPermissions(db)).toEqual([]);
    expect((await db.user.findUniqueOrThrow({ where: { id: notAdmin.id } })).permissions).toEqual([]);
  });
});
