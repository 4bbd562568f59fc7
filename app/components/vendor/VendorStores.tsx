/** A vendor's stores (name, handle, target gender, active products, followers), for the vendor and for admins. */
import { Badge, Card, Layout, Page, Text } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import type { Store } from "~/contract/stores";
import { GENDER_LABEL, LinkedTitle } from "~/components/admin";
import { VendorTabs } from "./VendorTabs";

type StoreRow = Pick<Store, "id" | "name" | "handle" | "target_gender" | "productCount" | "followerCount">;

export function VendorStores({
  base,
  title,
  backAction,
  stores,
  storeUrl,
}: {
  base: string;
  title: string;
  backAction?: { content: string; url: string };
  stores: StoreRow[];
  /** Admins open the store's admin page; vendors have none. */ storeUrl?: (id: string) => string;
}) {
  return (
    <Page title={title} backAction={backAction}>
      <Layout>
        <Layout.Section>
          <VendorTabs base={base} selected="stores" />
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <ResponsiveIndexTable
              resourceName={{ singular: "store", plural: "stores" }}
              itemCount={stores.length}
              selectable={false}
              headings={[{ title: "Store" }, { title: "Handle" }, { title: "Gender" }, { title: "Active products", alignment: "end" }, { title: "Followers", alignment: "end" }]}
              emptyState={
                <Text as="p" alignment="center">
                  No stores yet.
                </Text>
              }
            >
              {stores.map((s, i) => (
                <ResponsiveRow id={s.id} key={s.id} position={i}>
                  <ResponsiveCell>
                    {storeUrl ? (
                      <LinkedTitle to={storeUrl(s.id)} testId="vendor-store-name" title={s.name} primary />
                    ) : (
                      <Text as="span" fontWeight="semibold">
                        <span data-testid="vendor-store-name">{s.name}</span>
                      </Text>
                    )}
                  </ResponsiveCell>
                  <ResponsiveCell>{s.handle}</ResponsiveCell>
                  <ResponsiveCell>
                    <Badge tone={s.target_gender === "both" ? undefined : "info"}>{GENDER_LABEL[s.target_gender]}</Badge>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.productCount}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.followerCount}
                    </Text>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
