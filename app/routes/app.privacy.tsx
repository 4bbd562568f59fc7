/**
 * Customers' data requests (Shopify's customers/data_request webhook): the exports waiting for the
 * merchant, with their expiry and a download link, and the expired ones (files deleted). Same
 * service as GET /api/admin/privacy/data-requests; needs the `privacy.manage` permission. The
 * download is /app/privacy/<id>/export (app/routes/app_.privacy_.$id.export.tsx).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, EmptyState, IndexTable, Layout, Link, Page, Text } from "@shopify/polaris";
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

export default function PrivacyRequests() {
  const { items, ttlDays } = useLoaderData<typeof loader>();
  return (
    <Page title="Privacy requests" subtitle={`Customers' data exports requested through Shopify, kept ${ttlDays} days`}>
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {items.length === 0 ? (
              <EmptyState heading="No data requests" image="">
                <Text as="p">When a customer asks the store for their data, Shopify tells the app and the export appears here.</Text>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "data request", plural: "data requests" }}
                itemCount={items.length}
                selectable={false}
                headings={[{ title: "Customer" }, { title: "Requested" }, { title: "Status" }, { title: "Expires" }, { title: "Accounts found" }, { title: "" }]}
              >
                {items.map((r, i) => (
                  <IndexTable.Row id={r.id} key={r.id} position={i}>
                    <IndexTable.Cell>
                      <BlockStack gap="050">
                        <Text as="span">{r.customer}</Text>
                        {r.shopifyRequestId ? (
                          <Text as="span" tone="subdued">
                            Request {r.shopifyRequestId}
                          </Text>
                        ) : null}
                      </BlockStack>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{day(r.createdAt)}</IndexTable.Cell>
                    <IndexTable.Cell>
                      {r.status === "ready" ? <Badge tone={r.downloadedAt ? "success" : "attention"}>{r.downloadedAt ? "Downloaded" : "Ready"}</Badge> : <Badge>Expired</Badge>}
                    </IndexTable.Cell>
                    <IndexTable.Cell>{day(r.expiresAt)}</IndexTable.Cell>
                    <IndexTable.Cell>{r.usersFound}</IndexTable.Cell>
                    <IndexTable.Cell>
                      {r.status === "ready" ? (
                        <Link url={`/app/privacy/${r.id}/export`} target="_blank" removeUnderline>
                          Download JSON
                        </Link>
                      ) : null}
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            )}
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
