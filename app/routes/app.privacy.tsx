/**
 * Customers' data requests (Shopify's customers/data_request webhook): the exports waiting for the
 * merchant, with their expiry and a download link, and the expired ones (files deleted). Same
 * service as GET /api/admin/privacy/data-requests; needs the `privacy.manage` permission. The
 * download fetches /app/privacy/<id>/export (app/routes/app_.privacy_.$id.export.tsx).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, EmptyState, Layout, Page, Text } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useState } from "react";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listDataRequests, PRIVACY_EXPORT_TTL_DAYS } from "~/services/privacy-exports.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "privacy.manage");
  const ctx = getAppContext();
  const items = await listDataRequests({ db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log }, { take: 200 });
  return {
    ttlDays: PRIVACY_EXPORT_TTL_DAYS,
    items: items.map((r) => ({
      id: r.id,
      customer: r.customer_email ?? (r.customer_id ? `Customer ${r.customer_id}` : "Unknown customer"),
      shopifyRequestId: r.shopify_request_id,
      status: r.status,
      usersFound: r.users_found,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
      downloadedAt: r.downloaded_at?.toISOString() ?? null,
    })),
  };
};

const day = (iso: string) => iso.slice(0, 10);

/**
 * Fetches the file and saves it: inside the Shopify admin, App Bridge adds the session token to
 * `fetch` (a plain link would open without it); locally the session cookie goes along.
 */
async function saveExport(id: string): Promise<string | null> {
  const res = await fetch(`/app/privacy/${id}/export`, { headers: { accept: "application/json" } });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { staffError?: string } | null;
    return body?.staffError ?? `The download failed (HTTP ${res.status})`;
  }
  // A signed-out session is redirected to the login page: that is no export.
  if (!(res.headers.get("content-disposition") ?? "").startsWith("attachment")) return "Your session has ended: sign in again to download";
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `data-request-${id}.json`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}

export default function PrivacyRequests() {
  const { items, ttlDays } = useLoaderData<typeof loader>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (id: string) => {
    setBusy(id);
    setError(await saveExport(id).catch(() => "The download failed: check the connection and try again"));
    setBusy(null);
  };
  return (
    <Page title="Privacy requests" subtitle={`Customers' data exports requested through Shopify, kept ${ttlDays} days`}>
      <Layout>
        {error ? (
          <Layout.Section>
            <Banner tone="critical" onDismiss={() => setError(null)}>
              {error}
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            {items.length === 0 ? (
              <EmptyState heading="No data requests" image="">
                <Text as="p">When a customer asks the store for their data, Shopify tells the app and the export appears here.</Text>
              </EmptyState>
            ) : (
              <ResponsiveIndexTable
                resourceName={{ singular: "data request", plural: "data requests" }}
                itemCount={items.length}
                selectable={false}
                headings={[{ title: "Customer" }, { title: "Requested" }, { title: "Status" }, { title: "Expires" }, { title: "Accounts found" }, { title: "" }]}
              >
                {items.map((r, i) => (
                  <ResponsiveRow id={r.id} key={r.id} position={i}>
                    <ResponsiveCell>
                      <BlockStack gap="050">
                        <Text as="span">{r.customer}</Text>
                        {r.shopifyRequestId ? (
                          <Text as="span" tone="subdued">
                            Request {r.shopifyRequestId}
                          </Text>
                        ) : null}
                      </BlockStack>
                    </ResponsiveCell>
                    <ResponsiveCell>{day(r.createdAt)}</ResponsiveCell>
                    <ResponsiveCell>
                      {r.status === "ready" ? <Badge tone={r.downloadedAt ? "success" : "attention"}>{r.downloadedAt ? "Downloaded" : "Ready"}</Badge> : <Badge>Expired</Badge>}
                    </ResponsiveCell>
                    <ResponsiveCell>{day(r.expiresAt)}</ResponsiveCell>
                    <ResponsiveCell>{r.usersFound}</ResponsiveCell>
                    <ResponsiveCell>
                      {r.status === "ready" ? (
                        <Button variant="plain" loading={busy === r.id} onClick={() => void download(r.id)} accessibilityLabel={`Download the export of ${r.customer}`}>
                          Download JSON
                        </Button>
                      ) : null}
                    </ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
            )}
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
