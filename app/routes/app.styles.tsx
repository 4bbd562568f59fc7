/**
 * Styles: list (search, featured filter, sort, pages), product counts as a chart, the
 * categorisation queue, and creating a style. Same services and zod schemas as /api/styles.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, InlineStack, Layout, Page, Pagination, Select, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useState } from "react";
import { z } from "zod";
import { TargetGender } from "~/contract/common";
import { stylesEndpoints } from "~/contract/styles";
import { getAppContext } from "~/context.server";
import { listParam, parseListParams, type ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { categorisationQueue, createStyle, listStyles } from "~/services/styles.server";
import { BarChart } from "~/components/BarChart";
import { CategorisationBadge, FormModal, RowLink, SectionCard, TargetGenderSelect } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const PAGE = 20;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  // Field by field, so one malformed value (a hand-edited URL) costs only that field, not the search.
  const list = parseListParams(new URL(request.url).searchParams, {
    skip: listParam.page(0),
    q: listParam.text(120),
    featured: listParam.optional(z.stringbool()),
    target_gender: listParam.optional(TargetGender),
    sort: listParam.oneOf(["score", "name", "created"] as const, "score"),
  });
  const query = { ...list, q: list.q || undefined, take: PAGE };
  const page = await listStyles(ctx.db, query);
  const queue = await categorisationQueue(ctx.db, { skip: 0, take: 5 });
  return {
    page,
    queue: { total: queue.total, styles: queue.styles.map((s) => ({ id: s.id, name: s.name, status: s.categorisation_status })) },
    query: { q: query.q ?? "", featured: query.featured, sort: query.sort },
  };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
  if (form.get("intent") !== "create") return { ok: false, error: "Unknown action" };
  const parsed = stylesEndpoints.stylesCreate.body.safeParse({
    name: form.get("name"),
    description: String(form.get("description") ?? "") || null,
    target_gender: form.get("target_gender") || undefined,
    featured: form.get("featured") === "true",
  });
  if (!parsed.success) return invalidInput(parsed.error);
  return answerRefusals(async () => {
    const style = await createStyle(ctx.db, parsed.data);
    throw redirect(`/app/styles/${style.id}`);
  });
};

export default function Styles() {
  const { page, queue, query } = useLoaderData<typeof loader>();
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
  const chart = [...page.styles]
    .sort((a, b) => b.product_count - a.product_count)
    .slice(0, 8)
    .map((s) => ({ label: s.name.slice(0, 16), value: s.product_count }));

  return (
    <Page title="Styles" primaryAction={{ content: "Create style", onAction: () => setCreating(true) }}>
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <Box padding="300">
              <Form method="get">
                <InlineStack gap="300" blockAlign="end" wrap={false}>
                  <div style={{ flex: 1 }}>
                    <TextField label="Search styles" labelHidden name="q" placeholder="Search by name or handle" autoComplete="off" value={search} onChange={setSearch} />
                  </div>
                  <Select
                    label="Featured"
                    labelInline
                    options={[
                      { label: "All", value: "" },
                      { label: "Featured", value: "true" },
                      { label: "Not featured", value: "false" },
                    ]}
                    value={query.featured === undefined ? "" : String(query.featured)}
                    onChange={(v) => set({ featured: v || undefined })}
                  />
                  <Select
                    label="Sort"
                    labelInline
                    options={[
                      { label: "Score", value: "score" },
                      { label: "Name", value: "name" },
                      { label: "Newest", value: "created" },
                    ]}
                    value={query.sort}
                    onChange={(v) => set({ sort: v })}
                  />
                  {query.featured !== undefined ? <input type="hidden" name="featured" value={String(query.featured)} /> : null}
                  <input type="hidden" name="sort" value={query.sort} />
                  <Button submit loading={navigation.state === "loading"}>
                    Search
                  </Button>
                </InlineStack>
              </Form>
            </Box>
            <ResponsiveIndexTable
              resourceName={{ singular: "style", plural: "styles" }}
              itemCount={page.styles.length}
              selectable={false}
              headings={[{ title: "Style" }, { title: "Gender" }, { title: "Products", alignment: "end" }, { title: "Score", alignment: "end" }, { title: "Categorisation" }]}
            >
              {page.styles.map((s, i) => (
                <ResponsiveRow id={s.id} key={s.id} position={i}>
                  <ResponsiveCell>
                    <InlineStack gap="200" blockAlign="center">
                      <RowLink to={`/app/styles/${s.id}`} testId="style-link" primary>
                        {s.name}
                      </RowLink>
                      {s.featured ? <Badge tone="success">Featured</Badge> : null}
                    </InlineStack>
                    <Text as="p" tone="subdued" variant="bodySm">
                      {s.handle}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>{s.target_gender}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.product_count}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.score}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <CategorisationBadge status={s.categorisation_status} />
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <Box padding="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="span" tone="subdued">
                  {page.total === 0 ? "No styles" : `${page.skip + 1}–${page.skip + page.styles.length} of ${page.total}`}
                </Text>
                <Pagination
                  hasPrevious={page.skip > 0}
                  onPrevious={() => set({ skip: String(Math.max(0, page.skip - PAGE)) })}
                  hasNext={page.skip + page.styles.length < page.total}
                  onNext={() => set({ skip: String(page.skip + PAGE) })}
                />
              </InlineStack>
            </Box>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Products per style" gap="200">
              {chart.length ? <BarChart data={chart} /> : <Text as="p">No styles yet.</Text>}
            </SectionCard>
            <SectionCard title={`Categorisation queue (${queue.total})`} gap="200">
              {queue.styles.length === 0 ? (
                <Text as="p" tone="subdued">
                  Every style is categorised.
                </Text>
              ) : (
                queue.styles.map((s) => (
                  <InlineStack key={s.id} align="space-between">
                    <RowLink to={`/app/styles/${s.id}`} fontWeight="medium">
                      {s.name}
                    </RowLink>
                    <CategorisationBadge status={s.status} />
                  </InlineStack>
                ))
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {creating ? <CreateStyleModal onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}

function CreateStyleModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ name: "", description: "", target_gender: "both", featured: false });
  const submit = () => fetcher.submit({ intent: "create", ...form, featured: String(form.featured) }, { method: "post" });
  return (
    <FormModal title="Create style" submitLabel="Create" fetcher={fetcher} onSubmit={submit} onClose={onClose}>
      <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
      <TargetGenderSelect value={form.target_gender} onChange={(target_gender) => setForm({ ...form, target_gender })} />
      <Checkbox label="Featured" checked={form.featured} onChange={(featured) => setForm({ ...form, featured })} />
    </FormModal>
  );
}
