/**
 * "Forgot password" through the API as the storefront calls it (issue 20, item 4): the request
 * answers the same for every address and mails only an account with a password; the emailed link
 * (read from the outbox, where local mode writes every email) works once, for an hour; the new
 * password follows the registration rules; setting it ends every session of the account.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_RESET_REQUESTED } from "../../app/contract/users";
import { createRateLimiter } from "../../app/api/rate-limit.server";
import { PASSWORD_CONTAINS_EMAIL, PASSWORD_TOO_COMMON } from "../../app/services/password-policy.server";
import { PASSWORD_RESET_TTL_MINUTES, PasswordResetMessages, RESETS_PER_DAY } from "../../app/services/password-reset.server";
import { hashToken } from "../../app/services/tokens.server";
import { createTestApp, type TestApp } from "../helpers/app";

const OLD = "Velvet-Harbour-2931";
const NEW = "copper-meadow-violin-58";

let app: TestApp;
let seq = 0;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const uniqueEmail = (name: string) => `${name}-${++seq}@example.test`;

async function register(email: string) {
  const res = await app.api("POST", "/auth/register", { body: { email, password: OLD, first_name: "Rosa" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.user.id as string, token: res.body.token as string };
}

const forgot = (email: string, ip = "127.0.0.1") => app.api("POST", "/auth/forgot-password", { ip, body: { email } });
const check = (token: string) => app.api("POST", "/auth/reset-password/check", { body: { token } });
const reset = (token: string, password = NEW) => app.api("POST", "/auth/reset-password", { body: { token, password } });
const login = (email: string, password: string) => app.api("POST", "/auth/login", { body: { email, password } });
const mailsTo = (to: string) => app.database.db.emailOutbox.findMany({ where: { to, kind: "password_reset" }, orderBy: { created_at: "asc" } });

/** The token of the newest reset email to `to`. */
async function linkSentTo(to: string): Promise<string> {
  const mails = await mailsTo(to);
  expect(mails.length, `a reset email to ${to}`).toBeGreaterThan(0);
  const mail = mails[mails.length - 1];
  const m = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  expect(m, "the email carries a /reset-password link").not.toBeNull();
  expect(mail.html).toContain(`/reset-password?token=${m![1]}`);
  return m![1];
}

/** Makes the account's newest link old enough for the one-a-minute limit to let another through. */
async function ageLinks(userId: string, minutes: number) {
  await app.database.db.passwordReset.updateMany({ where: { user_id: userId }, data: { created_at: new Date(Date.now() - minutes * 60_000) } });
}

describe("POST /auth/forgot-password → the emailed link → POST /auth/reset-password", () => {
  it("sets the new password once; every session of the account ends; the old password stops working", async () => {
    const email = uniqueEmail("rosa");
    const account = await register(email);
    const otherDevice = await login(email, OLD);
    expect(otherDevice.status).toBe(200);

    const asked = await forgot(`  ${email.toUpperCase()} `);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ ok: true, message: PASSWORD_RESET_REQUESTED });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Reset your password");
    expect(mails[0].text).toContain("Hello Rosa,");
    expect(mails[0].text).toContain(`works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes`);
    const token = await linkSentTo(email);

    // Stored hashed: the database has no working link.
    const row = await app.database.db.passwordReset.findFirstOrThrow({ where: { user_id: account.id } });
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const lifetime = row.expires_at.getTime() - row.created_at.getTime();
    expect(lifetime).toBe(PASSWORD_RESET_TTL_MINUTES * 60_000);

    const checked = await check(token);
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ email, expires_at: row.expires_at.toISOString() });

    const done = await reset(token);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ ok: true, email });

    // Both sessions (this browser's and the other device's) are over.
    expect((await app.api("GET", "/users/me", { token: account.token })).status).toBe(401);
    expect((await app.api("GET", "/users/me", { token: otherDevice.body.token })).status).toBe(401);
    expect(await app.database.db.authToken.count({ where: { user_id: account.id } })).toBe(0);

    expect((await login(email, OLD)).status).toBe(401);
    const signedIn = await login(email, NEW);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.id);
  });

  it("answers an unknown address, and one whose account has no password, exactly like a known one, and mails neither", async () => {
    const known = uniqueEmail("known");
    await register(known);
    const answer = await forgot(known);

    const unknown = uniqueEmail("nobody");
    const none = await forgot(unknown);
    expect(none.status).toBe(answer.status);
    expect(none.body).toEqual(answer.body);
    expect(await mailsTo(unknown)).toHaveLength(0);

    // A lead only typed an address: no password to reset, no mail.
    const lead = await app.createUser({ authProvider: "lead", email: uniqueEmail("lead") });
    const leadAnswer = await forgot(lead.email!);
    expect(leadAnswer.status).toBe(answer.status);
    expect(leadAnswer.body).toEqual(answer.body);
    expect(await mailsTo(lead.email!)).toHaveLength(0);

    // Not an address at all: the contract's 400, like any form field.
    const bad = await forgot("not-an-email");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("Enter a valid email address");
  });

  it("refuses an expired link (the password stays) with a way forward", async () => {
    const email = uniqueEmail("exp");
    const account = await register(email);
    await forgot(email);
    const token = await linkSentTo(email);
    await app.database.db.passwordReset.updateMany({ where: { user_id: account.id }, data: { expires_at: new Date(Date.now() - 1000) } });

    const checked = await check(token);
    expect(checked.status).toBe(422);
    expect(checked.body.error.message).toBe(PasswordResetMessages.EXPIRED);
    const refused = await reset(token);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(PasswordResetMessages.EXPIRED);
    expect((await login(email, OLD)).status).toBe(200);
    expect((await app.api("GET", "/users/me", { token: account.token })).status).toBe(200);
  });

  it("refuses a link used before, and every other link of the account once one is used", async () => {
    const email = uniqueEmail("reuse");
    const account = await register(email);
    await forgot(email);
    const first = await linkSentTo(email);
    await ageLinks(account.id, 2);
    await forgot(email);
    const second = await linkSentTo(email);
    expect(second).not.toBe(first);

    expect((await reset(second)).status).toBe(200);
    const again = await reset(second, "another-fresh-saddle-77");
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(PasswordResetMessages.USED);
    const older = await reset(first, "another-fresh-saddle-77");
    expect(older.status).toBe(409);
    expect((await check(first)).status).toBe(409);
    expect((await login(email, NEW)).status).toBe(200);
    expect((await login(email, "another-fresh-saddle-77")).status).toBe(401);
  });

  it("one link used twice at once sets the password once", async () => {
    const email = uniqueEmail("race");
    await register(email);
    await forgot(email);
    const token = await linkSentTo(email);
    const results = await Promise.all(["first-racing-walnut-11", "second-racing-walnut-22"].map((p) => reset(token, p)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("refuses a wrong, an empty and a malformed token", async () => {
    const wrong = await reset(crypto.randomBytes(32).toString("base64url"));
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.message).toBe(PasswordResetMessages.INVALID);
    expect((await check(crypto.randomBytes(32).toString("base64url"))).status).toBe(404);
    const empty = await reset("   ");
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/no token/);
    expect((await reset("x".repeat(500))).status).toBe(400);
  });

  it("applies the registration's password rules; a refused password leaves the link usable", async () => {
    const email = uniqueEmail("rules");
    await register(email);
    await forgot(email);
    const token = await linkSentTo(email);

    const short = await reset(token, "short1");
    expect(short.status).toBe(400);
    expect(short.body.error.message).toContain("Password must be at least 8 characters");
    const common = await reset(token, "password123");
    expect(common.status).toBe(400);
    expect(common.body.error.message).toBe(PASSWORD_TOO_COMMON);
    const withEmail = await reset(token, `${email.split("@")[0]}-2931!`);
    expect(withEmail.status).toBe(400);
    expect(withEmail.body.error.message).toBe(PASSWORD_CONTAINS_EMAIL);

    expect((await check(token)).status).toBe(200);
    expect((await reset(token)).status).toBe(200);
  });

  it("an address gets at most one link a minute and five a day, with the same answer every time", async () => {
    const email = uniqueEmail("flood");
    const account = await register(email);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await forgot(email));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await mailsTo(email)).toHaveLength(1);

    for (let i = 1; i < RESETS_PER_DAY + 2; i++) {
      await ageLinks(account.id, 2);
      expect((await forgot(email)).status).toBe(200);
    }
    expect(await mailsTo(email)).toHaveLength(RESETS_PER_DAY);
  });

  it("a client address asking too often gets 429 with Retry-After, whatever the email", async () => {
    const original = app.ctx.authRateLimiter;
    app.ctx.authRateLimiter = createRateLimiter({ points: 3, durationSeconds: 60 });
    try {
      for (let i = 0; i < 3; i++) expect((await forgot(uniqueEmail("spray"), "203.0.113.9")).status).toBe(200);
      const refused = await forgot(uniqueEmail("spray"), "203.0.113.9");
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Another address is not affected.
      expect((await forgot(uniqueEmail("spray"), "203.0.113.10")).status).toBe(200);
    } finally {
      app.ctx.authRateLimiter = original;
    }
  });
});
