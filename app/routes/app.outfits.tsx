/**
 * Outfits ("complete the look"): the curated and accepted looks in any status (search, status and
 * gender filters, pages) and creating one. Same services and zod schemas as /api/outfits.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, Box, Button, Card, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { TargetGender } from "~/contract/common";
import { OutfitStatusSchema, outfitsEndpoints } from "~/contract/outfits";
import { getAppContext } from "~/context.server";
import { listParam, parseListParams, rangeLabel, type ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createOutfit, listAdminOutfits } from "~/services/outfits/curated.server";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { FormModal, ListFooter, RowLink, TargetGenderSelect } from "~/components/admin";
import { OutfitStatusBadge } from "~/components/admin/OutfitStatusBadge";
import { formOf } from "~/lib/body-limit.server";

const PAGE = 20;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const list = parseListParams(new URL(request.url).searchParams, {
    skip: listParam.page(0),
    q: listParam.text(120),
    status: listParam.optional(OutfitStatusSchema),
    target_gender: listParam.optional(TargetGender),
  });
  const query = { ...list, q: list.q || undefined, take: PAGE };
  const page = await listAdminOutfits(ctx.db, query);
  return { page, query: { q: query.q ?? "", status: query.status ?? "", target_gender: query.target_gender ?? "" } };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
  if (form.get("intent") !== "create") return { ok: false, error: "Unknown action" };
  const parsed = outfitsEndpoints.outfitsCreate.body.safeParse({
    name: form.get("name"),
    description: String(form.get("description") ?? "") || null,
    target_gender: form.get("target_gender") || undefined,
  });
  if (!parsed.success) return invalidInput(parsed.error);
  return answerRefusals(async () => {
    const outfit = await createOutfit(ctx.db, parsed.data, { userId: user.id });
    throw redirect(`/app/outfits/${outfit.id}`);
  });
};

export default function Outfits() {
  const { page, query } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState(query.q);
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!("skip" in changes)) next.delete("skip");
    setParams(next);
  };

  return (
    <Page
      title="Outfits"
      subtitle="Looks shown as “Complete the look” on product pages and in the feed"
      primaryAction={{ content: "Create outfit", onAction: () => setCreating(true) }}
      secondaryActions={[{ content: "Proposals", url: "/app/outfits/proposals" }]}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <Box padding="300">
              <Form method="get">
                <InlineStack gap="300" blockAlign="end" wrap={false}>
                  <div style={{ flex: 1 }}>
                    <TextField label="Search outfits" labelHidden name="q" placeholder="Search by name" autoComplete="off" value={search} onChange={setSearch} />
                  </div>
                  <Select
                    label="Status"
                    labelInline
                    options={[{ label: "All", value: "" }, ...OutfitStatusSchema.options.map((s) => ({ label: s, value: s }))]}
                    value={query.status}
                    onChange={(v) => set({ status: v || undefined })}
                  />
                  <Select
                    label="Gender"
                    labelInline
                    options={[{ label: "All", value: "" }, ...TargetGender.options.map((g) => ({ label: g, value: g }))]}
                    value={query.target_gender}
                    onChange={(v) => set({ target_gender: v || undefined })}
                  />
                  {query.status ? <input type="hidden" name="status" value={query.status} /> : null}
                  {query.target_gender ? <input type="hidden" name="target_gender" value={query.target_gender} /> : null}
                  <Button submit loading={navigation.state === "loading"}>
                    Search
                  </Button>
                </InlineStack>
              </Form>
            </Box>
            <ResponsiveIndexTable
              resourceName={{ singular: "outfit", plural: "outfits" }}
              itemCount={page.outfits.length}
              selectable={false}
              headings={[{ title: "Outfit" }, { title: "Status" }, { title: "Gender" }, { title: "Products", alignment: "end" }, { title: "Order", alignment: "end" }]}
            >
              {page.outfits.map((o, i) => (
                <ResponsiveRow id={o.id} key={o.id} position={i}>
                  <ResponsiveCell>
                    <InlineStack gap="200" blockAlign="center">
                      <RowLink to={`/app/outfits/${o.id}`} testId="outfit-link" primary>
                        {o.name}
                      </RowLink>
                      {o.source === "proposed" ? <Badge>From a proposal</Badge> : null}
                    </InlineStack>
                    <Text as="p" tone="subdued" variant="bodySm">
                      {o.products.map((p) => p.title).join(" · ") || "No products yet"}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <OutfitStatusBadge status={o.status} />
                  </ResponsiveCell>
                  <ResponsiveCell>{o.target_gender}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {o.product_ids.length}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {o.sort_order}
                    </Text>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <ListFooter
              summary={rangeLabel(page.skip, PAGE, page.total, "No outfits")}
              page={Math.floor(page.skip / PAGE) + 1}
              pageCount={Math.max(1, Math.ceil(page.total / PAGE))}
              onPage={(p) => set({ skip: String((p - 1) * PAGE) })}
              showPageLabel={false}
            />
          </Card>
        </Layout.Section>
      </Layout>
      {creating ? <CreateOutfitModal onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}

function CreateOutfitModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ name: "", description: "", target_gender: "both" });
  const submit = () => fetcher.submit({ intent: "create", ...form }, { method: "post" });
  return (
    <FormModal title="Create outfit" submitLabel="Create" fetcher={fetcher} onSubmit={submit} onClose={onClose}>
      <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
      <TargetGenderSelect value={form.target_gender} onChange={(target_gender) => setForm({ ...form, target_gender })} />
    </FormModal>
  );
}
