/**
 * Local-mode sign-in for the admin and vendor pages (inside Shopify, the admin signs staff in).
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AppProvider, Banner, BlockStack, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { usersEndpoints } from "~/contract/users";
import { getAppContext } from "~/context.server";
import { ApiError } from "~/api/errors.server";
import { isSecureRequest, sessionCookie } from "~/api/auth.server";
import { DomainError } from "~/lib/domain-errors";
import { identityDeps } from "~/services/identity-deps.server";
import { login } from "~/services/users.server";
import { TOKEN_TTL_DAYS } from "~/services/tokens.server";
import { isStaff } from "~/services/staff.server";
import { formOf } from "~/lib/body-limit.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

const safeNext = (next: string | null) => (next && next.startsWith("/app") && !next.startsWith("//") ? next : "/app");

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const ctx = getAppContext();
  if (ctx.config.COMMERCE_ADAPTER === "shopify") throw redirect("/app");
  return { next: safeNext(new URL(request.url).searchParams.get("next")), demo: ctx.config.APP_MODE === "local" };
};

export const action = async ({ request, context }: ActionFunctionArgs) => {
  const ctx = getAppContext();
  const form = await formOf(request);
  const parsed = usersEndpoints.login.body.safeParse({ email: form.get("email"), password: form.get("password") });
  if (!parsed.success) return { error: "Enter your email and password" };
  // The address Express resolved (server.ts, TRUST_PROXY): a client-sent X-Forwarded-For is not believed.
  const clientIp = (context as { clientIp?: string } | undefined)?.clientIp ?? "unknown";
  const limit = await ctx.authRateLimiter.consume(`admin-login:${clientIp}`);
  if (!limit.allowed) return tooManyAttempts(limit.retryAfterSeconds);
  try {
    // The same service as the API's sign-in: per-account limit, Argon2 even for unknown emails.
    const { user, token } = await login(identityDeps(ctx), parsed.data);
    if (!isStaff(user)) return { error: "This account has no access to the admin. Shoppers sign in on the storefront." };
    return redirect(safeNext(String(form.get("next") ?? "")), {
      headers: { "set-cookie": sessionCookie(token, { secure: isSecureRequest(request), maxAgeSeconds: TOKEN_TTL_DAYS * 86_400 }) },
    });
  } catch (e) {
    if (e instanceof DomainError && e.kind === "rate_limited") return tooManyAttempts(e.retryAfterSeconds ?? 60);
    if (e instanceof ApiError || e instanceof DomainError) return { error: e.message };
    throw e;
  }
};

/** The page with its message, answered 429 with Retry-After like the API. */
function tooManyAttempts(retryAfterSeconds: number) {
  return data({ error: `Too many attempts, try again in ${retryAfterSeconds} s` }, { status: 429, headers: { "retry-after": String(retryAfterSeconds) } });
}

export default function AdminLogin() {
  const { next, demo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  return (
    <AppProvider i18n={enTranslations}>
      <Page narrowWidth title="Sign in to Fashion Discovery admin">
        <BlockStack gap="400">
          {result?.error ? <Banner tone="critical">{result.error}</Banner> : null}
          <Card>
            <Form method="post">
              <input type="hidden" name="next" value={next} />
              <FormLayout>
                <TextField label="Email" name="email" type="email" autoComplete="username" value={email} onChange={setEmail} />
                <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} />
                <Button submit variant="primary" loading={busy}>
                  Sign in
                </Button>
              </FormLayout>
            </Form>
          </Card>
          {demo ? (
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingSm">
                  Demo accounts (local mode)
                </Text>
                <Text as="p">admin@demo.local · vendor@demo.local — password: demo-password</Text>
              </BlockStack>
            </Card>
          ) : null}
        </BlockStack>
      </Page>
    </AppProvider>
  );
}
