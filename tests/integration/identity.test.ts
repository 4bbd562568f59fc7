import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Messages } from "../../app/contract/messages";
import { createTestApp, type ApiResponse, type CallOptions, type TestApp } from "../helpers/app";

const PASSWORD = "correct horse battery";

let app: TestApp;
/** Every response body seen in this file, checked for password hashes at the end. */
const seen: string[] = [];
let emailSeq = 0;
const newEmail = (prefix = "user") => `${prefix}${++emailSeq}-${Date.now()}@example.test`;

async function call(method: string, path: string, opts?: CallOptions): Promise<ApiResponse> {
  const res = await app.api(method, path, opts);
  seen.push(typeof res.body === "string" ? res.body : JSON.stringify(res.body));
  return res;
}

const setCookie = (res: ApiResponse) => res.headers.get("set-cookie") ?? "";

async function guest() {
  const res = await call("POST", "/users/guest");
  expect(res.status).toBe(201);
  return res.body as { user: { id: string }; token: string };
}

async function registered(email = newEmail(), password = PASSWORD) {
  const res = await call("POST", "/auth/register", { body: { email, password } });
  expect(res.status).toBe(201);
  return { ...(res.body as { user: { id: string; email: string }; token: string }), email, password };
}

async function catalogue() {
  const db = app.database.db;
  const n = ++emailSeq;
  const vendor = await db.vendor.create({ data: { name: `Vendor ${n}`, handle: `vendor-${n}` } });
  const stores = await Promise.all(
    [1, 2].map((i) => db.store.create({ data: { name: `Store ${n}-${i}`, handle: `store-${n}-${i}`, vendor_id: vendor.id } })),
  );
  const products = await Promise.all(
    [1, 2, 3].map((i) =>
      db.product.create({
        data: { id: `gid://shopify/Product/${n}00${i}`, title: `Product ${n}-${i}`, handle: `product-${n}-${i}`, store_id: stores[0].id, vendor_id: vendor.id },
      }),
    ),
  );
  return { vendor, stores, products };
}

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("guests", () => {
  it("creates a guest with a token and an httpOnly session cookie", async () => {
    const res = await call("POST", "/users/guest");
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ auth_provider: "guest", email: null, role: "SHOPPER", permissions: [], metadata: {} });
    expect(typeof res.body.token).toBe("string");
    expect(res.body.token.length).toBeGreaterThan(20);
    const cookie = setCookie(res);
    expect(cookie).toContain(`fd_session=${encodeURIComponent(res.body.token)}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).toMatch(/Max-Age=\d+/);
    expect(cookie).not.toContain("Secure");
    expect(await app.database.db.user.findUnique({ where: { id: res.body.user.id } })).not.toBeNull();
  });

  it("marks the cookie Secure behind https", async () => {
    const res = await call("POST", "/users/guest", { headers: { "x-forwarded-proto": "https" } });
    expect(res.status).toBe(201);
    expect(setCookie(res)).toContain("Secure");
  });

  it("GET /users/me works with a bearer token and with the cookie, and is 401 without", async () => {
    const g = await guest();
    const bearer = await call("GET", "/users/me", { token: g.token });
    expect(bearer.status).toBe(200);
    expect(bearer.body.id).toBe(g.user.id);

    const cookie = await call("GET", "/users/me", { headers: { cookie: `other=1; fd_session=${encodeURIComponent(g.token)}` } });
    expect(cookie.status).toBe(200);
    expect(cookie.body.id).toBe(g.user.id);

    const none = await call("GET", "/users/me");
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: "unauthenticated", message: Messages.USER_NOT_AUTHENTICATED });

    const bogus = await call("GET", "/users/me", { token: "fd_not-a-real-token" });
    expect(bogus.status).toBe(401);
  });

  it("does not accept an expired token", async () => {
    const g = await guest();
    await app.database.db.authToken.updateMany({ where: { user_id: g.user.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await call("GET", "/users/me", { token: g.token })).status).toBe(401);
  });
});

describe("lead upgrade", () => {
  it("requires the user id with the spec's exact message", async () => {
    const g = await guest();
    const missing = await call("POST", "/users/lead", { token: g.token, body: { email: newEmail(), origin: "newsletter" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("User ID is required");

    const empty = await call("POST", "/users/lead", { token: g.token, body: { userId: "  ", email: newEmail(), origin: "newsletter" } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("User ID is required");
  });

  it("refuses someone else's user id", async () => {
    const a = await guest();
    const b = await guest();
    const res = await call("POST", "/users/lead", { token: a.token, body: { userId: b.user.id, email: newEmail(), origin: "popup" } });
    expect(res.status).toBe(403);
    const other = await app.database.db.user.findUniqueOrThrow({ where: { id: b.user.id } });
    expect(other.auth_provider).toBe("guest");
    expect(other.email).toBeNull();
  });

  it("upgrades the caller to a lead with its email and origin", async () => {
    const g = await guest();
    const email = newEmail("lead");
    const res = await call("POST", "/users/lead", { token: g.token, body: { userId: g.user.id, email: `  ${email.toUpperCase()} `, origin: "popup" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: g.user.id, auth_provider: "lead", email, metadata: { origin: "popup" } });
    expect((await call("GET", "/users/me", { token: g.token })).body.auth_provider).toBe("lead");
  });
});

describe("registration and login", () => {
  it("registers a new account", async () => {
    const email = newEmail();
    const res = await call("POST", "/auth/register", { body: { email, password: PASSWORD, first_name: "Ada", last_name: "Lovelace" } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email, auth_provider: "password", first_name: "Ada", last_name: "Lovelace", role: "SHOPPER" });
    expect(setCookie(res)).toContain("fd_session=");
    const me = await call("GET", "/users/me", { token: res.body.token });
    expect(me.body.id).toBe(res.body.user.id);
  });

  it("a guest that registers keeps its id and its data", async () => {
    const { products } = await catalogue();
    const g = await guest();
    await app.database.db.savedProduct.create({ data: { user_id: g.user.id, product_id: products[0].id } });
    const res = await call("POST", "/auth/register", { token: g.token, body: { email: newEmail(), password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body.user.id).toBe(g.user.id);
    expect(res.body.user.auth_provider).toBe("password");
    expect(await app.database.db.savedProduct.count({ where: { user_id: g.user.id } })).toBe(1);
    expect(await app.database.db.user.count({ where: { id: g.user.id } })).toBe(1);
  });

  it("a lead registers with its own email and keeps its id", async () => {
    const g = await guest();
    const email = newEmail("lead");
    await call("POST", "/users/lead", { token: g.token, body: { userId: g.user.id, email, origin: "popup" } });
    const res = await call("POST", "/auth/register", { token: g.token, body: { email, password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ id: g.user.id, email, auth_provider: "password", metadata: { origin: "popup" } });
  });

  it("a lead whose email belongs to another account does not take that email", async () => {
    const owner = await registered();
    const g = await guest();
    const res = await call("POST", "/users/lead", { token: g.token, body: { userId: g.user.id, email: owner.email, origin: "popup" } });
    expect(res.status).toBe(200);
    expect(res.body.auth_provider).toBe("lead");
    expect(res.body.email).toBeNull();
    expect((await call("POST", "/auth/login", { body: { email: owner.email, password: PASSWORD } })).body.user.id).toBe(owner.user.id);
  });

  it("refuses a duplicate email (whatever its case) with 409", async () => {
    const u = await registered();
    const again = await call("POST", "/auth/register", { body: { email: u.email, password: "another password" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", message: Messages.EMAIL_TAKEN });
    const upper = await call("POST", "/auth/register", { body: { email: u.email.toUpperCase(), password: "another password" } });
    expect(upper.status).toBe(409);
    expect(await app.database.db.user.count({ where: { email: u.email } })).toBe(1);
  });

  it("validates email and password length", async () => {
    const bad = await call("POST", "/auth/register", { body: { email: "not-an-email", password: PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("Enter a valid email address");
    const short = await call("POST", "/auth/register", { body: { email: newEmail(), password: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toContain("at least 8 characters");
  });

  it("logs in with the right password only", async () => {
    const u = await registered();
    const wrong = await call("POST", "/auth/login", { body: { email: u.email, password: "wrong password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toBe(Messages.INVALID_CREDENTIALS);
    const unknown = await call("POST", "/auth/login", { body: { email: newEmail("nobody"), password: PASSWORD } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(Messages.INVALID_CREDENTIALS);

    const ok = await call("POST", "/auth/login", { body: { email: ` ${u.email.toUpperCase()} `, password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(u.user.id);
    expect(ok.body.token).not.toBe(u.token);
    expect(setCookie(ok)).toContain(`fd_session=${encodeURIComponent(ok.body.token)}`);
    expect((await call("GET", "/users/me", { token: ok.body.token })).body.id).toBe(u.user.id);
  });

  it("a guest without a password cannot log in", async () => {
    const g = await guest();
    await call("POST", "/users/lead", { token: g.token, body: { userId: g.user.id, email: "lead-nopass@example.test", origin: "x" } });
    const res = await call("POST", "/auth/login", { body: { email: "lead-nopass@example.test", password: PASSWORD } });
    expect(res.status).toBe(401);
  });
});

describe("logout", () => {
  it("revokes the token presented and clears the cookie", async () => {
    const u = await registered();
    const second = (await call("POST", "/auth/login", { body: { email: u.email, password: PASSWORD } })).body.token as string;
    const res = await call("POST", "/auth/logout", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const cookie = setCookie(res);
    expect(cookie).toContain("fd_session=;");
    expect(cookie).toContain("Max-Age=0");
    expect(cookie).toContain("HttpOnly");
    expect((await call("GET", "/users/me", { token: u.token })).status).toBe(401);
    // Other sessions of the same user stay signed in.
    expect((await call("GET", "/users/me", { token: second })).status).toBe(200);
  });

  it("revokes a cookie session", async () => {
    const g = await guest();
    const cookie = `fd_session=${encodeURIComponent(g.token)}`;
    expect((await call("POST", "/auth/logout", { headers: { cookie } })).status).toBe(200);
    expect((await call("GET", "/users/me", { headers: { cookie } })).status).toBe(401);
  });

  it("is harmless without a session", async () => {
    const res = await call("POST", "/auth/logout");
    expect(res.status).toBe(200);
    expect(setCookie(res)).toContain("Max-Age=0");
  });
});

describe("profile", () => {
  it("PATCH /users/me updates names and merges metadata", async () => {
    const u = await registered();
    const first = await call("PATCH", "/users/me", {
      token: u.token,
      body: { first_name: "Grace", last_name: "Hopper", metadata: { stylePreferences: ["minimal", "street"] } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ first_name: "Grace", last_name: "Hopper", metadata: { stylePreferences: ["minimal", "street"] } });

    const second = await call("PATCH", "/users/me", { token: u.token, body: { metadata: { interests: "menswear,streetwear" } } });
    expect(second.status).toBe(200);
    // Fields not sent are kept; metadata is merged, not replaced.
    expect(second.body.first_name).toBe("Grace");
    expect(second.body.metadata).toEqual({ stylePreferences: ["minimal", "street"], interests: "menswear,streetwear" });

    const cleared = await call("PATCH", "/users/me", { token: u.token, body: { last_name: null, phone_number: "+44 20 7946 0000" } });
    expect(cleared.body).toMatchObject({ first_name: "Grace", last_name: null, phone_number: "+44 20 7946 0000" });
    expect(cleared.body.metadata.interests).toBe("menswear,streetwear");

    const stored = await app.database.db.user.findUniqueOrThrow({ where: { id: u.user.id } });
    expect(stored.metadata).toEqual({ stylePreferences: ["minimal", "street"], interests: "menswear,streetwear" });
  });

  it("PATCH /users/me keeps the lead's origin when interests are set", async () => {
    const g = await guest();
    await call("POST", "/users/lead", { token: g.token, body: { userId: g.user.id, email: newEmail(), origin: "quiz" } });
    const res = await call("PATCH", "/users/me", { token: g.token, body: { metadata: { interests: "womenswear" } } });
    expect(res.body.metadata).toEqual({ origin: "quiz", interests: "womenswear" });
  });

  it("DELETE /users/me deletes the account and signs it out", async () => {
    const { products, stores } = await catalogue();
    const u = await registered();
    await app.database.db.savedProduct.create({ data: { user_id: u.user.id, product_id: products[0].id } });
    await app.database.db.userFavoriteStore.create({ data: { user_id: u.user.id, store_id: stores[0].id } });
    const res = await call("DELETE", "/users/me", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(setCookie(res)).toContain("Max-Age=0");
    expect((await call("GET", "/users/me", { token: u.token })).status).toBe(401);
    expect(await app.database.db.user.count({ where: { id: u.user.id } })).toBe(0);
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.user.id } })).toBe(0);
    expect((await call("POST", "/auth/login", { body: { email: u.email, password: PASSWORD } })).status).toBe(401);
  });
});

describe("change password", () => {
  it("checks the old password, then only the new one logs in", async () => {
    const u = await registered();
    // A second session of the same account (another device).
    const other = await call("POST", "/auth/login", { body: { email: u.email, password: PASSWORD } });
    expect(other.status).toBe(200);
    const wrong = await call("POST", "/users/change-password", { token: u.token, body: { old_password: "not it at all", new_password: "brand new password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe("The current password is incorrect");

    const short = await call("POST", "/users/change-password", { token: u.token, body: { old_password: PASSWORD, new_password: "short" } });
    expect(short.status).toBe(400);

    const ok = await call("POST", "/users/change-password", { token: u.token, body: { old_password: PASSWORD, new_password: "brand new password" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    // The other session is ended; the one that changed the password stays signed in.
    expect((await call("GET", "/users/me", { token: other.body.token })).status).toBe(401);
    expect((await call("GET", "/users/me", { token: u.token })).status).toBe(200);

    expect((await call("POST", "/auth/login", { body: { email: u.email, password: PASSWORD } })).status).toBe(401);
    expect((await call("POST", "/auth/login", { body: { email: u.email, password: "brand new password" } })).status).toBe(200);
  });

  it("is not available to guests", async () => {
    const g = await guest();
    const res = await call("POST", "/users/change-password", { token: g.token, body: { old_password: "whatever", new_password: "brand new password" } });
    expect(res.status).toBe(403);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: g.user.id } })).password_hash).toBeNull();
  });
});

describe("merge guest into account", () => {
  it("moves the guest's saved products and followed stores, drops duplicates and deletes the guest", async () => {
    const db = app.database.db;
    const { products, stores } = await catalogue();
    const u = await registered();
    const g = await guest();
    await db.savedProduct.createMany({
      data: [
        { user_id: g.user.id, product_id: products[0].id },
        { user_id: g.user.id, product_id: products[1].id },
        { user_id: u.user.id, product_id: products[1].id },
        { user_id: u.user.id, product_id: products[2].id },
      ],
    });
    await db.userFavoriteStore.createMany({
      data: [
        { user_id: g.user.id, store_id: stores[0].id },
        { user_id: g.user.id, store_id: stores[1].id },
        { user_id: u.user.id, store_id: stores[1].id },
      ],
    });

    const res = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: { guestToken: g.token } });
    expect(res.status).toBe(200);
    expect(res.body.merged).toEqual({ savedProducts: 1, favoriteStores: 1, tryOns: 0, savedTryOns: 0, collections: 0, clones: 0, notificationRequests: 0, orders: 0, cartMoved: false, conversations: 0, visionSearches: 0 });

    const saved = await db.savedProduct.findMany({ where: { user_id: u.user.id }, orderBy: { product_id: "asc" } });
    expect(saved.map((s) => s.product_id)).toEqual(products.map((p) => p.id).sort());
    const follows = await db.userFavoriteStore.findMany({ where: { user_id: u.user.id } });
    expect(follows.map((f) => f.store_id).sort()).toEqual(stores.map((s) => s.id).sort());

    expect(await db.user.count({ where: { id: g.user.id } })).toBe(0);
    expect(await db.savedProduct.count({ where: { user_id: g.user.id } })).toBe(0);
    expect(await db.userFavoriteStore.count({ where: { user_id: g.user.id } })).toBe(0);
    expect((await call("GET", "/users/me", { token: g.token })).status).toBe(401);
  });

  it("moves the guest's clones with their training jobs and outfits, try-ons and collections", async () => {
    const db = app.database.db;
    const { products } = await catalogue();
    const u = await registered();
    const g = await guest();
    const clone = await db.clone.create({ data: { user_id: g.user.id, name: "Me" } });
    const training = await db.cloneTrainingJob.create({ data: { user_id: g.user.id, clone_id: clone.id, status: "training" } });
    const outfit = await db.outfit.create({ data: { user_id: g.user.id, clone_id: clone.id, name: "Look" } });
    const tryOn = await db.tryOn.create({ data: { user_id: g.user.id, clone_id: clone.id, product_id: products[0].id, input_hash: "h1" } });
    await db.savedTryOn.create({ data: { user_id: g.user.id, tryon_id: tryOn.id } });
    await db.userCollection.create({ data: { user_id: g.user.id, name: "Wishlist" } });
    const photoSearch = await db.visionSearchEntry.create({ data: { user_id: g.user.id, image_url: "/uploads/images/guest-photo.jpg", is_temporary: true } });

    const res = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: { guestToken: g.token } });
    expect(res.status).toBe(200);
    expect(res.body.merged).toEqual({ savedProducts: 0, favoriteStores: 0, tryOns: 1, savedTryOns: 1, collections: 1, clones: 1, notificationRequests: 0, orders: 0, cartMoved: false, conversations: 0, visionSearches: 1 });
    expect((await db.visionSearchEntry.findUniqueOrThrow({ where: { id: photoSearch.id } })).user_id).toBe(u.user.id);
    expect((await db.clone.findUniqueOrThrow({ where: { id: clone.id } })).user_id).toBe(u.user.id);
    expect((await db.tryOn.findUniqueOrThrow({ where: { id: tryOn.id } })).user_id).toBe(u.user.id);
    expect(await db.savedTryOn.count({ where: { user_id: u.user.id, tryon_id: tryOn.id } })).toBe(1);
    expect(await db.userCollection.count({ where: { user_id: u.user.id, name: "Wishlist" } })).toBe(1);
    // A moved clone keeps its training history and outfits (a running training job must still find its row).
    expect((await db.cloneTrainingJob.findUnique({ where: { id: training.id } }))?.user_id).toBe(u.user.id);
    expect((await db.outfit.findUnique({ where: { id: outfit.id } }))?.user_id).toBe(u.user.id);
  });

  it("refuses an invalid guest token, the caller's own token and a non-guest account", async () => {
    const u = await registered();
    const invalid = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: { guestToken: "fd_nonsense" } });
    expect(invalid.status).toBe(400);

    const own = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: { guestToken: u.token } });
    expect(own.status).toBe(400);

    const other = await registered();
    const full = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: { guestToken: other.token } });
    expect(full.status).toBe(403);
    expect(await app.database.db.user.count({ where: { id: other.user.id } })).toBe(1);

    const missing = await call("POST", "/users/merge-guest-into-me", { token: u.token, body: {} });
    expect(missing.status).toBe(400);
  });

  it("happens on login when the caller still holds a guest session (browser cookie)", async () => {
    const db = app.database.db;
    const { products } = await catalogue();
    const u = await registered();
    const g = await guest();
    await db.savedProduct.create({ data: { user_id: g.user.id, product_id: products[0].id } });
    const res = await call("POST", "/auth/login", { headers: { cookie: `fd_session=${g.token}` }, body: { email: u.user.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.user.id);
    expect(await db.savedProduct.count({ where: { user_id: u.user.id, product_id: products[0].id } })).toBe(1);
    expect(await db.user.count({ where: { id: g.user.id } })).toBe(0);
  });

  it("is refused to a guest caller", async () => {
    const a = await guest();
    const b = await guest();
    const res = await call("POST", "/users/merge-guest-into-me", { token: a.token, body: { guestToken: b.token } });
    expect(res.status).toBe(403);
    expect(await app.database.db.user.count({ where: { id: b.user.id } })).toBe(1);
  });
});

describe("demo accounts", () => {
  it("are refused in production mode", async () => {
    const prod = await createTestApp({
      env: { APP_MODE: "production", DATABASE_URL: "postgresql://x/y", APP_SECRET: "x".repeat(32), APP_URL: "https://example.com", SHOPIFY_API_SECRET: "s".repeat(32) },
    });
    try {
      expect(prod.ctx.config.APP_MODE).toBe("production");
      for (const email of ["admin@demo.local", "Shopper@Demo.Local"]) {
        const login = await prod.api("POST", "/auth/login", { body: { email, password: "demo-password" } });
        expect(login.status).toBe(403);
        expect(login.body.error.message).toBe("Demo accounts are available in local mode only");
      }
      const register = await prod.api("POST", "/auth/register", { body: { email: "new@demo.local", password: "demo-password" } });
      expect(register.status).toBe(403);
      expect(register.body.error.message).toBe("Demo accounts are available in local mode only");
      expect(await prod.database.db.user.count({ where: { email: "new@demo.local" } })).toBe(0);
      // Other accounts work as usual.
      const normal = await prod.api("POST", "/auth/register", { body: { email: "someone@example.com", password: PASSWORD } });
      expect(normal.status).toBe(201);
    } finally {
      await prod.close();
    }
  });

  it("are allowed in local mode", async () => {
    const res = await call("POST", "/auth/register", { body: { email: `tester${Date.now()}@demo.local`, password: PASSWORD } });
    expect(res.status).toBe(201);
  });
});

describe("rate limiting", () => {
  it("limits authentication attempts per client address", async () => {
    const limited = await createTestApp({ authRateLimit: { points: 3, durationSeconds: 60 } });
    try {
      const attempt = (ip: string) => limited.api("POST", "/auth/login", { ip, body: { email: "someone@example.test", password: "guessing-1" } });
      for (let i = 0; i < 3; i++) expect((await attempt("10.0.0.1")).status).toBe(401);
      const refused = await attempt("10.0.0.1");
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: "rate_limited", message: Messages.TOO_MANY_REQUESTS });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another address is not affected.
      expect((await attempt("10.0.0.2")).status).toBe(401);
      // Nor are endpoints without the auth limit.
      expect((await limited.api("GET", "/products", { ip: "10.0.0.1" })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("secrets", () => {
  it("no response in this file contained a password hash", async () => {
    // Run last (vitest runs tests in order within a file).
    expect(seen.length).toBeGreaterThan(30);
    for (const text of seen) {
      expect(text).not.toContain("password_hash");
      expect(text).not.toContain("$argon2");
    }
    // Hashes are stored, though: the check above is not vacuous.
    const withHash = await app.database.db.user.findFirst({ where: { password_hash: { not: null } } });
    expect(withHash?.password_hash).toMatch(/^\$argon2id\$/);
  });
});
