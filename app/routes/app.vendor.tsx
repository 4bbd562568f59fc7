import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, DataTable, InlineGrid, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { getAppContext } from "~/context.server";
import { requireVendor } from "~/lib/staff-auth.server";
import { vendorOverview } from "~/services/dashboard.server";
import { BarChart } from "~/components/BarChart";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { vendorId } = await requireVendor(request);
  const overview = await vendorOverview(getAppContext().db, vendorId);
  if (!overview) throw new Response("Vendor not found", { status: 404 });
  return overview;
};

export default function VendorHome() {
  const { vendor, stores, productCount, recentProducts } = useLoaderData<typeof loader>();
  return (
    <Page title={vendor.name} subtitle={`Commission ${vendor.commissionRate}%`}>
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Products per store
                </Text>
                <BarChart data={stores.map((s) => ({ label: s.name.slice(0, 16), value: s.products }))} />
                <Text as="p" tone="subdued">
                  {`${productCount} product${productCount === 1 ? "" : "s"} in ${stores.length} store${stores.length === 1 ? "" : "s"}`}
                </Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Stores
                </Text>
                {stores.map((s) => (
                  <Text as="p" key={s.id}>
                    {s.name} <Badge>{s.target_gender}</Badge>
                  </Text>
                ))}
              </BlockStack>
            </Card>
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Latest products
              </Text>
              <DataTable
                columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
                headings={["", "Product", "Status", "Price", "Inventory"]}
                rows={recentProducts.map((p) => [
                  p.featuredImageUrl ? <Thumbnail key="t" size="small" source={p.featuredImageUrl} alt="" /> : "",
                  p.title,
                  p.status,
                  p.price,
                  p.totalInventory,
                ])}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
