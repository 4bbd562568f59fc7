/** A vendor's stores (name, handle, target gender, active products, followers), for the vendor and for admins. */
import { Badge, Card, IndexTable, Layout, Page, Text } from "@shopify/polaris";
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
            <IndexTable
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
                <IndexTable.Row id={s.id} key={s.id} position={i}>
                  <IndexTable.Cell>
                    {storeUrl ? (
                      <LinkedTitle to={storeUrl(s.id)} testId="vendor-store-name" title={s.name} primary />
                    ) : (
                      <Text as="span" fontWeight="semibold">
                        <span data-testid="vendor-store-name">{s.name}</span>
                      </Text>
                    )}
                  </IndexTable.Cell>
                  <IndexTable.Cell>{s.handle}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={s.target_gender === "both" ? undefined : "info"}>{GENDER_LABEL[s.target_gender]}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {s.productCount}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {s.followerCount}
                    </Text>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
