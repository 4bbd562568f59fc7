import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { getAppContext } from "~/context.server";
import { requireStaff } from "~/lib/staff-auth.server";
import { adminOverview } from "~/services/dashboard.server";
import { checkHealth } from "~/services/health.server";
import { BarChart } from "~/components/BarChart";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireStaff(request);
  if (user.role === "VENDOR") throw redirect("/app/vendor");
  const ctx = getAppContext();
  const [overview, health] = await Promise.all([adminOverview(ctx.db), checkHealth(ctx)]);
  return { overview, health };
};

const STAT_LABELS: [keyof Awaited<ReturnType<typeof adminOverview>>["counts"], string][] = [
  ["activeProducts", "Active products"],
  ["stores", "Stores"],
  ["vendors", "Vendors"],
  ["collections", "Collections"],
  ["orders", "Orders"],
  ["shoppers", "Registered shoppers"],
  ["pendingReviews", "Reviews awaiting moderation"],
];

export default function Dashboard() {
  const { overview, health } = useLoaderData<typeof loader>();
  const gender = overview.productsByGender;
  return (
    <Page title="Dashboard">
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
            {STAT_LABELS.map(([key, label]) => (
              <Card key={key}>
                <BlockStack gap="100">
                  <Text as="h3" variant="bodySm" tone="subdued">
                    {label}
                  </Text>
                  <Text as="p" variant="heading2xl">
                    <span data-testid={`stat-${key}`}>{overview.counts[key].toLocaleString("en")}</span>
                  </Text>
                </BlockStack>
              </Card>
            ))}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Active products by target gender
              </Text>
              <BarChart
                data={[
                  { label: "Menswear", value: gender.menswear ?? 0 },
                  { label: "Womenswear", value: gender.womenswear ?? 0 },
                  { label: "Both", value: gender.both ?? 0 },
                ]}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                System
              </Text>
              {(
                [
                  ["Database", health.database.ok, health.database.detail],
                  ["Storage", health.storage.ok, health.storage.detail],
                  ["Job worker", health.worker.ok, health.worker.detail],
                ] as const
              ).map(([name, ok, detail]) => (
                <InlineStack key={name} align="space-between">
                  <Text as="span">{name}</Text>
                  <InlineStack gap="200">
                    <Text as="span" tone="subdued">
                      {detail}
                    </Text>
                    <Badge tone={ok ? "success" : "critical"}>{ok ? "OK" : "Down"}</Badge>
                  </InlineStack>
                </InlineStack>
              ))}
              <Text as="p" tone="subdued">
                Mode: {health.mode} · API documentation at <a href="/api/docs">/api/docs</a>
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
