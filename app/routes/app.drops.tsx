/**
 * Drops: a dated list grouped by month (times in UTC), filtered by status, and creating a drop.
 * Same services and zod schemas as /api/drops.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { dropsEndpoints } from "~/contract/drops";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, isoOrNull as iso, utcFromLocalInput } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createDrop, listDrops } from "~/services/drops.server";
import { DropStatusBadge, FormModal, RowLink, StatusTabs } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const TABS = [
  { id: "all", label: "All" },
  { id: "scheduled", label: "Scheduled" },
  { id: "draft", label: "Drafts" },
  { id: "published", label: "Published" },
  { id: "cancelled", label: "Cancelled" },
] as const;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "drops.manage");
  const ctx = getAppContext();
  const tab = TABS.find((t) => t.id === new URL(request.url).searchParams.get("status")) ?? TABS[0];
  const { drops } = await listDrops(ctx.db, { status: tab.id === "all" ? undefined : tab.id }, true);
  return {
    tab: tab.id,
    drops: drops.map((d) => ({
      id: d.id,
      name: d.name,
      status: d.status,
      product_count: d.product_count,
      scheduled_publish_date: iso(d.scheduled_publish_date),
      notified_at: iso(d.notified_at),
    })),
  };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "drops.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  if (form.get("intent") !== "create") return { ok: false, error: "Unknown action" };
  const parsed = dropsEndpoints.dropsCreate.body.safeParse({
    name: form.get("name"),
    description: String(form.get("description") ?? "") || null,
    scheduled_publish_date: utcFromLocalInput(String(form.get("date") ?? "")),
  });
  if (!parsed.success) return invalidInput(parsed.error);
  return answerRefusals(async () => {
    const drop = await createDrop(ctx, parsed.data);
    throw redirect(`/app/drops/${drop.id}`);
  });
};

const monthLabel = (isoDate: string) => new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(isoDate));
const dayLabel = (isoDate: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(new Date(isoDate));

type Row = ReturnType<typeof useLoaderData<typeof loader>>["drops"][number];

function groupByMonth(drops: Row[]): { label: string; drops: Row[] }[] {
  const groups = new Map<string, { label: string; drops: Row[] }>();
  for (const d of drops) {
    const key = d.scheduled_publish_date ? d.scheduled_publish_date.slice(0, 7) : "undated";
    const label = d.scheduled_publish_date ? monthLabel(d.scheduled_publish_date) : "No date yet";
    if (!groups.has(key)) groups.set(key, { label, drops: [] });
    groups.get(key)!.drops.push(d);
  }
  return [...groups.values()];
}

export default function Drops() {
  const { drops, tab } = useLoaderData<typeof loader>();
  const [, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const groups = groupByMonth(drops);
  return (
    <Page title="Drops" subtitle="Times are in UTC" primaryAction={{ content: "Create drop", onAction: () => setCreating(true) }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Card padding="0">
              <StatusTabs tabs={TABS} selected={tab} onSelect={(id) => setParams(id === "all" ? {} : { status: id })} />
            </Card>
            {groups.length === 0 ? (
              <Card>
                <Text as="p" tone="subdued">
                  No drops here yet.
                </Text>
              </Card>
            ) : null}
            {groups.map((g) => (
              <Card key={g.label}>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    <span data-testid="drop-month">{g.label}</span>
                  </Text>
                  {g.drops.map((d) => (
                    <InlineStack key={d.id} align="space-between" blockAlign="center" gap="300">
                      <InlineStack gap="300" blockAlign="center">
                        <div style={{ minWidth: 150 }}>
                          <Text as="span" tone="subdued">
                            {d.scheduled_publish_date ? dayLabel(d.scheduled_publish_date) : "—"}
                          </Text>
                        </div>
                        <RowLink to={`/app/drops/${d.id}`} testId="drop-link">
                          {d.name}
                        </RowLink>
                      </InlineStack>
                      <InlineStack gap="200" blockAlign="center">
                        <Text as="span" tone="subdued">
                          {d.product_count} product{d.product_count === 1 ? "" : "s"}
                        </Text>
                        {d.notified_at ? <Badge tone="success">Notified</Badge> : null}
                        <DropStatusBadge status={d.status} />
                      </InlineStack>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Card>
            ))}
          </BlockStack>
        </Layout.Section>
      </Layout>
      {creating ? <CreateDropModal onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}

function CreateDropModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ name: "", description: "", date: "" });
  return (
    <FormModal title="Create drop" submitLabel="Create" fetcher={fetcher} onSubmit={() => fetcher.submit({ intent: "create", ...form }, { method: "post" })} onClose={onClose}>
      <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
      <TextField
        label="Publish date (UTC)"
        type="datetime-local"
        autoComplete="off"
        value={form.date}
        onChange={(date) => setForm({ ...form, date })}
        helpText="Optional: leave empty to keep the drop as a draft and set the date later."
      />
    </FormModal>
  );
}
