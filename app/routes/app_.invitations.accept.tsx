/**
 * The page of a staff invitation's link (/app/invitations/accept?token=…), outside the admin
 * layout: it shows who invited whom and for which role, and accepts it — signed in as the invited
 * account, with that account's password, or by choosing a password for a new account
 * (app/services/staff-invitations.server.ts). Locally the new staff member lands in the admin,
 * signed in; inside Shopify they open the app from the Shopify admin, which maps them by email.
 */
import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppProvider, Banner, BlockStack, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { getAppContext } from "~/context.server";
import { authenticateRequest, isSecureRequest, sessionCookie } from "~/api/auth.server";
import { toApiError } from "~/api/router.server";
import { identityDeps } from "~/services/identity-deps.server";
import { acceptInvitation, describeInvitation } from "~/services/staff-invitations.server";
import { roleLabel } from "~/lib/staff-role-label";
import { TOKEN_TTL_DAYS } from "~/services/tokens.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

// The token is in the address: keep it out of caches and of other sites' Referer.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });

/** A refusal's message for the page; anything that is not a refusal goes to the error page. */
function refusal(e: unknown) {
  const err = toApiError(e);
  if (err.status >= 500) throw e;
  return err;
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const ctx = getAppContext();
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const auth = await authenticateRequest(ctx, request);
  try {
    const invitation = await describeInvitation(identityDeps(ctx), token, auth.user);
    return { ok: true as const, token, invitation: { ...invitation, expires_at: invitation.expires_at.toISOString() } };
  } catch (e) {
    return { ok: false as const, error: refusal(e).message };
  }
};

type ActionResult = { error: string } | { accepted: string };

export const action = async ({ request, context }: ActionFunctionArgs) => {
  const ctx = getAppContext();
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "") || undefined;
  if (form.get("new_account") === "true" && password !== String(form.get("password_confirm") ?? "")) {
    return data<ActionResult>({ error: "The two passwords differ: type the same password twice" }, { status: 400 });
  }
  // The address Express resolved (server.ts): a client-sent X-Forwarded-For is not believed.
  const clientIp = (context as { clientIp?: string } | undefined)?.clientIp ?? "unknown";
  const limit = await ctx.authRateLimiter.consume(`invitation-accept:${clientIp}`);
  if (!limit.allowed) {
    return data<ActionResult>({ error: `Too many attempts, try again in ${limit.retryAfterSeconds} s` }, { status: 429, headers: { "retry-after": String(limit.retryAfterSeconds) } });
  }
  const auth = await authenticateRequest(ctx, request);
  try {
    const r = await acceptInvitation(identityDeps(ctx), auth.user, { token, password });
    ctx.log.info({ userId: r.user.id, role: r.user.role }, "staff invitation accepted");
    const cookie = sessionCookie(r.token, { secure: isSecureRequest(request), maxAgeSeconds: TOKEN_TTL_DAYS * 86_400 });
    if (ctx.config.COMMERCE_ADAPTER === "shopify") {
      return data<ActionResult>({ accepted: "Invitation accepted. Open Fashion Discovery from your Shopify admin (Apps) with this email address." }, { headers: { "set-cookie": cookie } });
    }
    return redirect(r.user.role === "VENDOR" ? "/app/vendor" : "/app", { headers: { "set-cookie": cookie } });
  } catch (e) {
    const err = refusal(e);
    return data<ActionResult>({ error: err.message }, { status: err.status });
  }
};

export default function AcceptInvitation() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");

  return (
    <AppProvider i18n={enTranslations}>
      <Page narrowWidth title="Invitation to Fashion Discovery">
        <BlockStack gap="400">
          {!page.ok ? (
            <Banner tone="critical" title="This invitation cannot be used">
              <span data-testid="invitation-error">{page.error}</span>
            </Banner>
          ) : result && "accepted" in result ? (
            <Banner tone="success" title="Welcome">
              {result.accepted}
            </Banner>
          ) : (
            <>
              {result && "error" in result ? <Banner tone="critical">{result.error}</Banner> : null}
              <Card>
                <BlockStack gap="300">
                  <Text as="p" variant="bodyLg">
                    {page.invitation.invited_by ?? "An admin"} invited <strong>{page.invitation.email}</strong> to join as{" "}
                    {roleLabel(page.invitation.role, page.invitation.vendor_name)}.
                  </Text>
                  <Text as="p" tone="subdued">
                    Valid until {page.invitation.expires_at.slice(0, 10)}, once.
                  </Text>
                  <Form method="post">
                    <input type="hidden" name="token" value={page.token} />
                    <input type="hidden" name="new_account" value={String(page.invitation.account === "new")} />
                    <FormLayout>
                      {page.invitation.signed_in_as_invitee ? (
                        <Text as="p">You are signed in as {page.invitation.email}.</Text>
                      ) : page.invitation.account === "existing" ? (
                        <>
                          {page.invitation.signed_in_as ? (
                            <Banner tone="warning">
                              You are signed in as {page.invitation.signed_in_as}. This invitation is for {page.invitation.email}: enter that account&apos;s password.
                            </Banner>
                          ) : null}
                          <TextField label={`Password of ${page.invitation.email}`} name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} />
                        </>
                      ) : (
                        <>
                          <Text as="p">Choose a password for {page.invitation.email}.</Text>
                          <TextField label="Password" name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} />
                          <TextField label="Password again" name="password_confirm" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
                        </>
                      )}
                      <Button submit variant="primary" loading={busy}>
                        Accept invitation
                      </Button>
                    </FormLayout>
                  </Form>
                </BlockStack>
              </Card>
            </>
          )}
        </BlockStack>
      </Page>
    </AppProvider>
  );
}
