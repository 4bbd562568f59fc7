/**
 * Outfit proposals: looks the recommendation engine puts together (garment groups, colour harmony,
 * co-purchase). Accepting one makes it a draft look (or publishes it); rejecting keeps it out of
 * future proposals. Both decisions are kept as outfit training data.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Layout, Page, Select, Text } from "@shopify/polaris";
import { TargetGender } from "~/contract/common";
import { outfitsEndpoints } from "~/contract/outfits";
import { getAppContext } from "~/context.server";
import { listParam, parseListParams, type ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { acceptProposal, listProposals, rejectProposal } from "~/services/outfits/proposals.server";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { ProductThumb } from "~/components/CatalogueProductPicker";
import { ActionBannerSection, useIntentFetcher } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const query = parseListParams(new URL(request.url).searchParams, { target_gender: listParam.optional(TargetGender) });
  const { proposals } = await listProposals(ctx.db, { take: 15, target_gender: query.target_gender });
  return { proposals, target_gender: query.target_gender ?? "" };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = form.get("intent");
  return answerRefusals<ActionResult>(async () => {
    if (intent === "accept" || intent === "publish") {
      const parsed = outfitsEndpoints.outfitsProposalsAccept.body.safeParse({ product_ids: form.getAll("product_ids"), name: form.get("name") || undefined, publish: intent === "publish" });
      if (!parsed.success) return invalidInput(parsed.error);
      const outfit = await acceptProposal(ctx.db, parsed.data, { userId: user.id });
      throw redirect(`/app/outfits/${outfit.id}`);
    }
    if (intent === "reject") {
      const parsed = outfitsEndpoints.outfitsProposalsReject.body.safeParse({ product_ids: form.getAll("product_ids") });
      if (!parsed.success) return invalidInput(parsed.error);
      await rejectProposal(ctx.db, parsed.data);
      return { ok: true, message: "Proposal rejected: it will not be proposed again." };
    }
    return { ok: false, error: "Unknown action" };
  });
};

export default function OutfitProposals() {
  const { proposals, target_gender } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const { fetcher, submit, busy } = useIntentFetcher<typeof action>();
  return (
    <Page title="Outfit proposals" subtitle="Looks put together by the recommendation engine" backAction={{ content: "Outfits", url: "/app/outfits" }}>
      <Layout>
        <ActionBannerSection result={fetcher.data} />
        <Layout.Section>
          <Card padding="0">
            <BlockStack gap="0">
              <div style={{ padding: "var(--p-space-300)" }}>
                <Select
                  label="Gender"
                  labelInline
                  options={[{ label: "All", value: "" }, ...TargetGender.options.map((g) => ({ label: g, value: g }))]}
                  value={target_gender}
                  onChange={(v) => {
                    const next = new URLSearchParams(params);
                    v ? next.set("target_gender", v) : next.delete("target_gender");
                    setParams(next);
                  }}
                />
              </div>
              <ResponsiveIndexTable
                resourceName={{ singular: "proposal", plural: "proposals" }}
                itemCount={proposals.length}
                selectable={false}
                emptyState={<Text as="p">No open proposals: every look the engine can put together has been decided.</Text>}
                headings={[{ title: "Look" }, { title: "Why" }, { title: "Score", alignment: "end" }, { title: "Decision" }]}
              >
                {proposals.map((p, i) => (
                  <ResponsiveRow id={p.key} key={p.key} position={i}>
                    <ResponsiveCell>
                      <BlockStack gap="100">
                        <Text as="span" fontWeight="semibold">
                          {p.name}
                        </Text>
                        <InlineStack gap="100" wrap={false}>
                          {p.products.map((c) => (
                            <ProductThumb key={c.id} url={c.featuredImage?.url} alt={c.title} />
                          ))}
                        </InlineStack>
                        <Text as="span" tone="subdued" variant="bodySm">
                          {p.products.map((c) => c.title).join(" · ")}
                        </Text>
                      </BlockStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <InlineStack gap="100">
                        <Badge>{p.attributes.groups.join(" + ")}</Badge>
                        <Badge tone={p.attributes.harmony === "mixed" ? "warning" : "success"}>{`colours: ${p.attributes.harmony}`}</Badge>
                        {p.attributes.co_purchase > 0 ? <Badge tone="info">{`bought together ${Math.round(p.attributes.co_purchase * 100)}%`}</Badge> : null}
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Text as="span" alignment="end" numeric>
                        {p.score.toFixed(2)}
                      </Text>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <InlineStack gap="200" wrap={false}>
                        <Button size="slim" variant="primary" disabled={busy} accessibilityLabel={`Accept ${p.name}`} onClick={() => submit({ intent: "accept", name: p.name, product_ids: p.product_ids })}>
                          Accept
                        </Button>
                        <Button size="slim" disabled={busy} accessibilityLabel={`Accept and publish ${p.name}`} onClick={() => submit({ intent: "publish", name: p.name, product_ids: p.product_ids })}>
                          Accept and publish
                        </Button>
                        <Button size="slim" tone="critical" variant="plain" disabled={busy} accessibilityLabel={`Reject ${p.name}`} onClick={() => submit({ intent: "reject", product_ids: p.product_ids })}>
                          Reject
                        </Button>
                      </InlineStack>
                    </ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
