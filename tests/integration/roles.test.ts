import fs from "node:fs";
import path from "node:path";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { access, endpoint } from "../../app/contract/endpoint";
import { handlers } from "../../app/api/index.server";
import { createApiHandler, type AllHandlers } from "../../app/api/router.server";
import { DEFAULT_ADMIN_PERMISSIONS, PermissionNames, endpoints, type EndpointDef, type Permission, type RoleName } from "../../app/contract";
import { Messages } from "../../app/contract/messages";
import { TEST_API_KEY, createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let vendorId: string;

beforeAll(async () => {
  app = await createTestApp();
  const vendor = await app.database.db.vendor.create({ data: { name: "Roles Vendor", handle: "roles-vendor" } });
  vendorId = vendor.id;
});
afterAll(() => app?.close());

const all = Object.entries(endpoints) as [string, EndpointDef][];
const pathOf = (def: EndpointDef) => def.path.replace(/\{\w+\}/g, "x");
const denied = [401, 403];

/** Calls an endpoint the way an attacker would: path parameters "x", no body. */
const hit = (def: EndpointDef, o: { token?: string; headers?: Record<string, string> } = {}) =>
  app.api(def.method, pathOf(def), { token: o.token, headers: o.headers });

// Fresh users per check: an allowed call may run a handler that changes or deletes its caller.
const guest = () => app.createUser({ authProvider: "guest" });
const shopper = () => app.createUser();
const admin = (permissions: readonly string[] = PermissionNames) => app.createUser({ role: "ADMIN", permissions: [...permissions] });
const vendorUser = (linked: boolean) => app.createUser({ role: "VENDOR", vendorId: linked ? vendorId : null });

describe("every endpoint of the contract enforces its access rule", () => {
  it("the contract has endpoints of several access kinds", () => {
    const kinds = new Set(all.map(([, d]) => d.access.kind));
    expect(all.length).toBeGreaterThan(10);
    expect(kinds.has("public")).toBe(true);
    expect(kinds.has("user")).toBe(true);
    expect(kinds.has("registered")).toBe(true);
    expect(kinds.has("role")).toBe(true);
  });

  it.each(all)("%s", async (name, def) => {
    const a = def.access;
    const expectStatus = async (res: Promise<{ status: number; body: any }>, status: number, who: string) => {
      const r = await res;
      expect(r.status, `${name} (${def.method} ${def.path}) as ${who}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body?.error?.code, `${name} as ${who}`).toBe(status === 401 ? "unauthenticated" : "forbidden");
    };
    const expectAllowed = async (res: Promise<{ status: number; body: any }>, who: string) => {
      const r = await res;
      expect(denied, `${name} (${def.method} ${def.path}) as ${who}: ${r.status} ${JSON.stringify(r.body)}`).not.toContain(r.status);
    };

    switch (a.kind) {
      case "public":
        await expectAllowed(hit(def), "anonymous");
        return;
      case "user":
        await expectStatus(hit(def), 401, "anonymous");
        await expectStatus(hit(def, { token: "fd_forged-token" }), 401, "a forged token");
        await expectAllowed(hit(def, { token: (await guest()).token }), "a guest");
        return;
      case "registered":
        await expectStatus(hit(def), 401, "anonymous");
        // With a spec message (e.g. the vision search entries), guests get 401 with it, as anonymous callers do.
        await expectStatus(hit(def, { token: (await guest()).token }), a.message ? 401 : 403, "a guest");
        if (a.message) expect((await hit(def)).body?.error?.message, name).toBe(a.message);
        await expectAllowed(hit(def, { token: (await shopper()).token }), "a registered shopper");
        // Full-user endpoints (reviewable orders) refuse leads too; the others let them in.
        if (a.fullUsersOnly) await expectStatus(hit(def, { token: (await app.createUser({ authProvider: "lead" })).token }), 403, "a lead");
        else await expectAllowed(hit(def, { token: (await app.createUser({ authProvider: "lead" })).token }), "a lead");
        return;
      case "role": {
        const roles = a.roles as readonly RoleName[];
        expect(roles.length).toBeGreaterThan(0);
        await expectStatus(hit(def), 401, "anonymous");
        await expectStatus(hit(def, { token: "fd_forged-token" }), 401, "a forged token");
        if (!roles.includes("SHOPPER")) {
          await expectStatus(hit(def, { token: (await shopper()).token }), 403, "a shopper");
          await expectStatus(hit(def, { token: (await guest()).token }), 403, "a guest");
        }
        if (roles.includes("ADMIN")) {
          if (a.permission) {
            // A list of permissions: any one of them lets an admin in.
            const accepted: readonly string[] = [a.permission].flat();
            const lacking = PermissionNames.filter((p) => !accepted.includes(p));
            await expectStatus(hit(def, { token: (await admin(lacking)).token }), 403, `an admin without ${accepted.join(" or ")}`);
            await expectStatus(hit(def, { token: (await admin([])).token }), 403, "an admin without permissions");
            for (const p of accepted) await expectAllowed(hit(def, { token: (await admin([p])).token }), `an admin with only ${p}`);
          } else {
            await expectAllowed(hit(def, { token: (await admin([])).token }), "an admin");
          }
        } else {
          await expectStatus(hit(def, { token: (await admin()).token }), 403, "an admin with every permission");
        }
        if (roles.includes("VENDOR")) {
          await expectStatus(hit(def, { token: (await vendorUser(false)).token }), 403, "a vendor user without vendor_id");
          await expectAllowed(hit(def, { token: (await vendorUser(true)).token }), "a linked vendor user");
        } else {
          await expectStatus(hit(def, { token: (await vendorUser(true)).token }), 403, "a vendor user");
        }
        return;
      }
      case "apiKey":
        await expectStatus(hit(def), 401, "no x-api-key");
        await expectStatus(hit(def, { headers: { "x-api-key": "wrong-key" } }), 401, "a wrong x-api-key");
        await expectStatus(hit(def, { headers: { "x-api-key": TEST_API_KEY.slice(0, -1) } }), 401, "a truncated x-api-key");
        // A user token is no substitute for the key.
        await expectStatus(hit(def, { token: (await admin()).token }), 401, "an admin token without x-api-key");
        await expectAllowed(hit(def, { headers: { "x-api-key": TEST_API_KEY } }), "the right x-api-key");
        return;
      default:
        throw new Error(`${name} has an access kind this test does not know: ${JSON.stringify(a)}`);
    }
  });
});

describe("vendor and api-key rules (through the router, with stand-in endpoints)", () => {
  // The contract may not have vendor or data-service endpoints yet; these stand-ins make sure the
  // router enforces those rules today. They are added to the contract only inside this test.
  it("a vendor endpoint needs a VENDOR linked to a vendor; an api-key endpoint needs the key", async () => {
    const registry = endpoints as unknown as Record<string, EndpointDef>;
    const ok = z.object({ ok: z.literal(true) });
    registry.__vendorProbe = endpoint({ method: "GET", path: "/__probe/vendors/me", summary: "", tags: [], access: access.vendor, response: ok });
    registry.__apiKeyProbe = endpoint({ method: "POST", path: "/__probe/graphql", summary: "", tags: [], access: access.apiKey, response: ok });
    try {
      const probeHandlers = { ...handlers, __vendorProbe: async () => ({ ok: true }), __apiKeyProbe: async () => ({ ok: true }) } as unknown as AllHandlers;
      const handle = createApiHandler(probeHandlers);
      const send = async (method: string, path: string, headers: Record<string, string> = {}) => {
        const res = await handle(new Request(`http://localhost/api${path}`, { method, headers }), app.ctx, { clientIp: "127.0.0.1" });
        return res.status;
      };
      const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

      expect(await send("GET", "/__probe/vendors/me")).toBe(401);
      expect(await send("GET", "/__probe/vendors/me", bearer((await shopper()).token))).toBe(403);
      expect(await send("GET", "/__probe/vendors/me", bearer((await admin()).token))).toBe(403);
      expect(await send("GET", "/__probe/vendors/me", bearer((await vendorUser(false)).token))).toBe(403);
      expect(await send("GET", "/__probe/vendors/me", bearer((await vendorUser(true)).token))).toBe(200);

      expect(await send("POST", "/__probe/graphql")).toBe(401);
      expect(await send("POST", "/__probe/graphql", { "x-api-key": "wrong" })).toBe(401);
      expect(await send("POST", "/__probe/graphql", bearer((await admin()).token))).toBe(401);
      expect(await send("POST", "/__probe/graphql", { "x-api-key": TEST_API_KEY })).toBe(200);
    } finally {
      delete registry.__vendorProbe;
      delete registry.__apiKeyProbe;
    }
  });

  it("an api-key endpoint is closed when no key is configured", async () => {
    const noKey = await createTestApp({ env: { DATA_SERVICE_API_KEY: "" } });
    const registry = endpoints as unknown as Record<string, EndpointDef>;
    registry.__apiKeyProbe = endpoint({ method: "POST", path: "/__probe/graphql", summary: "", tags: [], access: access.apiKey, response: z.object({ ok: z.literal(true) }) });
    try {
      expect(noKey.ctx.config.DATA_SERVICE_API_KEY).toBeUndefined();
      const handle = createApiHandler({ ...handlers, __apiKeyProbe: async () => ({ ok: true }) } as unknown as AllHandlers);
      const res = await handle(new Request("http://localhost/api/__probe/graphql", { method: "POST", headers: { "x-api-key": "" } }), noKey.ctx, {});
      expect(res.status).toBe(401);
      const any = await handle(new Request("http://localhost/api/__probe/graphql", { method: "POST", headers: { "x-api-key": "anything" } }), noKey.ctx, {});
      expect(any.status).toBe(401);
    } finally {
      delete registry.__apiKeyProbe;
      await noKey.close();
    }
  });
});

describe("admin user management", () => {
  let manager: { id: string; token: string };
  beforeAll(async () => {
    manager = await admin();
  });

  it("lists admins and vendors, optionally filtered by roles", async () => {
    // Its own database: the access walk above creates hundreds of admins, beyond the list's cap of 500.
    const own = await createTestApp();
    try {
      const ownVendor = await own.database.db.vendor.create({ data: { name: "List Vendor", handle: "list-vendor" } });
      const ownManager = await own.createUser({ role: "ADMIN", permissions: [...PermissionNames] });
      const v = await own.createUser({ role: "VENDOR", vendorId: ownVendor.id });
      const s = await own.createUser();
      const a = await own.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });

      const vendorsOnly = await own.api("GET", "/users/admin/admins", { token: ownManager.token, query: { roles: "VENDOR" } });
      expect(vendorsOnly.status).toBe(200);
      const vIds = vendorsOnly.body.users.map((u: { id: string }) => u.id);
      expect(vIds).toContain(v.id);
      expect(vIds).not.toContain(a.id);
      expect(vendorsOnly.body.users.every((u: { role: string }) => u.role === "VENDOR")).toBe(true);

      const everyone = await own.api("GET", "/users/admin/admins", { token: ownManager.token });
      const ids = everyone.body.users.map((u: { id: string }) => u.id);
      expect(ids).toEqual(expect.arrayContaining([v.id, a.id, ownManager.id]));
      expect(ids).not.toContain(s.id);
      expect(everyone.body.users.every((u: { role: string }) => u.role === "ADMIN" || u.role === "VENDOR")).toBe(true);

      const both = await own.api("GET", "/users/admin/admins?roles=ADMIN,VENDOR", { token: ownManager.token });
      expect(both.body.users.length).toBe(everyone.body.users.length);

      const bad = await own.api("GET", "/users/admin/admins", { token: ownManager.token, query: { roles: "EMPEROR" } });
      expect(bad.status).toBe(400);
    } finally {
      await own.close();
    }
  });

  it("does not send an invitation when send_email is false: the answer carries the link instead", async () => {
    const res = await app.api("POST", "/users/admin/admins", {
      token: manager.token,
      body: { email: "quiet.admin@example.test", first_name: "Quiet", last_name: "Admin", send_email: false },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: null, invitationSent: false, invitation: { email: "quiet.admin@example.test", status: "pending" } });
    expect(res.body.accept_url).toContain("/app/invitations/accept?token=");
    expect(await app.database.db.emailOutbox.count({ where: { to: "quiet.admin@example.test" } })).toBe(0);
    // Nobody is an admin until the link is accepted.
    expect(await app.database.db.user.count({ where: { email: "quiet.admin@example.test" } })).toBe(0);
  });

  it("invites an admin with the defaults: the invitation email, then an account with the default permissions on acceptance", async () => {
    const res = await app.api("POST", "/users/admin/admins", {
      token: manager.token,
      body: { email: "New.Admin@Example.test", first_name: "New", last_name: "Admin" },
    });
    expect(res.status).toBe(201);
    expect(res.body.invitationSent).toBe(true);
    expect(res.body.user).toBeNull();
    expect(res.body.invitation).toMatchObject({ email: "new.admin@example.test", role: "ADMIN", first_name: "New", last_name: "Admin", vendor_id: null, status: "pending" });
    expect([...res.body.invitation.permissions].sort()).toEqual([...DEFAULT_ADMIN_PERMISSIONS].sort());
    expect(res.body.invitation.permissions).not.toContain("admins.manage");
    // send_email defaults to true: the invitation is queued, and the worker delivers it to the outbox.
    const queued = await app.database.db.emailOutbox.findFirstOrThrow({ where: { to: "new.admin@example.test", kind: "staff_invitation" } });
    expect(queued.status).toBe("queued");
    await startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
    expect((await app.database.db.emailOutbox.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe("sent");
    const files = fs.readdirSync(path.join(app.dataDir, "outbox"));
    const record = JSON.parse(fs.readFileSync(path.join(app.dataDir, "outbox", files.find((f) => f.endsWith(".json"))!), "utf8"));
    expect(record).toMatchObject({ to: "new.admin@example.test", subject: "You are invited to Fashion Discovery" });
    const token = decodeURIComponent(/accept\?token=(\S+)/.exec(record.text)![1]);

    const accepted = await app.api("POST", "/auth/invitations/accept", { body: { token, password: "Copper-Meadow-Falcon-71" } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email: "new.admin@example.test", role: "ADMIN", first_name: "New", last_name: "Admin", vendor_id: null });
    expect([...accepted.body.user.permissions].sort()).toEqual([...DEFAULT_ADMIN_PERMISSIONS].sort());
    expect(JSON.stringify(accepted.body)).not.toContain("password_hash");

    const dup = await app.api("POST", "/users/admin/admins", {
      token: manager.token,
      body: { email: "new.admin@example.test", first_name: "Again", last_name: "Admin" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(Messages.EMAIL_TAKEN);
  });

  it("invites with chosen permissions; an existing shopper stays a shopper until accepting", async () => {
    const s = await app.createUser({ email: "promote-me@example.test" });
    const res = await app.api("POST", "/users/admin/admins", {
      token: manager.token,
      body: { email: "promote-me@example.test", first_name: "Pro", last_name: "Moted", permissions: ["orders.manage"], send_email: false },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: null, invitation: { permissions: ["orders.manage"], status: "pending" } });
    expect(await app.database.db.user.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({ role: "SHOPPER", permissions: [] });
    expect((await app.api("GET", "/users/me", { token: s.token })).body.role).toBe("SHOPPER");

    const invalid = await app.api("POST", "/users/admin/admins", {
      token: manager.token,
      body: { email: "x@example.test", first_name: "X", last_name: "Y", permissions: ["world.domination"] },
    });
    expect(invalid.status).toBe(400);
  });

  it("inviting a VENDOR user needs an existing vendor", async () => {
    const base = { first_name: "Val", last_name: "Vendor", role: "VENDOR" };
    const noVendor = await app.api("POST", "/users/admin/admins", { token: manager.token, body: { ...base, email: "v1@example.test" } });
    expect(noVendor.status).toBe(400);
    expect(noVendor.body.error.message).toContain("vendor_id");

    const unknown = await app.api("POST", "/users/admin/admins", { token: manager.token, body: { ...base, email: "v1@example.test", vendor_id: "no-such-vendor" } });
    expect(unknown.status).toBe(404);

    const ok = await app.api("POST", "/users/admin/admins", { token: manager.token, body: { ...base, email: "v1@example.test", vendor_id: vendorId } });
    expect(ok.status).toBe(201);
    expect(ok.body.invitation).toMatchObject({ role: "VENDOR", vendor_id: vendorId, permissions: [] });
    expect(await app.database.db.user.count({ where: { email: "v1@example.test" } })).toBe(0);
  });

  it("reads and replaces an admin's permissions", async () => {
    const target = await admin(["catalog.edit"]);
    const got = await app.api("GET", `/users/admin/${target.id}/permissions`, { token: manager.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ userId: target.id, role: "ADMIN", permissions: ["catalog.edit"] });

    const put = await app.api("PUT", `/users/admin/${target.id}/permissions`, {
      token: manager.token,
      body: { permissions: ["reviews.moderate", "drops.manage", "reviews.moderate"] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ userId: target.id, role: "ADMIN", permissions: ["reviews.moderate", "drops.manage"] });
    const again = await app.api("GET", `/users/admin/${target.id}/permissions`, { token: manager.token });
    expect(again.body.permissions).toEqual(["reviews.moderate", "drops.manage"]);

    // The new permissions take effect at once.
    const asTarget = await app.api("GET", "/users/admin/admins", { token: target.token });
    expect(asTarget.status).toBe(403);
  });

  it("rejects invalid permission updates", async () => {
    const target = await admin(["catalog.edit"]);
    const invalid = await app.api("PUT", `/users/admin/${target.id}/permissions`, { token: manager.token, body: { permissions: ["catalog.edit", "nope"] } });
    expect(invalid.status).toBe(400);

    const s = await shopper();
    const notAdmin = await app.api("PUT", `/users/admin/${s.id}/permissions`, { token: manager.token, body: { permissions: ["catalog.edit"] } });
    expect(notAdmin.status).toBe(400);
    expect(notAdmin.body.error.message).toBe("Permissions apply to admin users only");

    const self = await app.api("PUT", `/users/admin/${manager.id}/permissions`, { token: manager.token, body: { permissions: ["catalog.edit"] } });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toContain("admins.manage");
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: manager.id } })).permissions).toContain("admins.manage");

    const missing = await app.api("GET", "/users/admin/no-such-user/permissions", { token: manager.token });
    expect(missing.status).toBe(404);

    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: target.id } })).permissions).toEqual(["catalog.edit"]);
  });

  it("an admin may keep admins.manage while changing its other permissions", async () => {
    const self = await admin(["admins.manage"] as Permission[]);
    const res = await app.api("PUT", `/users/admin/${self.id}/permissions`, { token: self.token, body: { permissions: ["admins.manage", "orders.manage"] } });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual(["admins.manage", "orders.manage"]);
  });
});
