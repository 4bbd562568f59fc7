/**
 * One drop: schedule (a future date holds the products not live yet; with "hold back live
 * products" the live ones too — docs/drops.md), Publish now, details (teaser for shoppers),
 * products (picker with search, remove), notify shoppers (active users or chosen emails) with the
 * result in a banner, cancel / reopen / unschedule, delete with confirmation. Times are in UTC.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { BlockStack, Button, Checkbox, ChoiceList, FormLayout, InlineStack, Layout, Page, Pagination, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { dropsEndpoints } from "~/contract/drops";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, isoOrNull as iso, orNotFound, productPickerResults, utcFromLocalInput } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { deleteDrop, dropCompanions, getDrop, heldProductCount, notifyDrop, publishDropNow, setDropProducts, setScheduledPublishDate, updateDrop } from "~/services/drops.server";
import { CatalogueProductPicker } from "~/components/CatalogueProductPicker";
import { ActionBannerSection, ConfirmModal, CuratedProductRow, DropStatusBadge, SectionCard, useIntentFetcher } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const PAGE = 60;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "drops.manage");
  const ctx = getAppContext();
  const url = new URL(request.url);
  const skip = Math.max(0, Number(url.searchParams.get("skip")) || 0);
  return orNotFound("This drop does not exist (it may have been deleted)", async () => {
    // One query after another: the embedded database does not take concurrent statement streams well.
    const drop = await getDrop(ctx.db, params.id!, true);
    const companions = await dropCompanions(ctx.db, params.id!, { skip, take: PAGE });
    const { picker, pickerQuery } = await productPickerResults(ctx.db, url.searchParams);
    return {
      drop: { ...drop, scheduled_publish_date: iso(drop.scheduled_publish_date), notified_at: iso(drop.notified_at), created_at: iso(drop.created_at), updated_at: iso(drop.updated_at) },
      companions: {
        ...companions,
        products: companions.products.map((p) => ({
          ...p,
          publishedAt: iso(p.publishedAt),
          companion: p.companion ? { ...p.companion, scheduled_publish_date: iso(p.companion.scheduled_publish_date) } : null,
        })),
      },
      picker,
      pickerQuery,
    };
  });
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "drops.manage");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    switch (form.get("intent")) {
      case "update": {
        const parsed = dropsEndpoints.dropsUpdate.body.safeParse({
          name: form.get("name"),
          description: String(form.get("description") ?? "") || null,
          teaser: String(form.get("teaser") ?? "") || null,
          image_url: String(form.get("image_url") ?? "") || null,
        });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateDrop(ctx, id, parsed.data);
        return { ok: true, message: "Drop saved." };
      }
      case "hold-back": {
        const parsed = dropsEndpoints.dropsUpdate.body.safeParse({ name: form.get("name"), hold_back_live: form.get("hold_back_live") === "true" });
        if (!parsed.success) return invalidInput(parsed.error);
        const d = await updateDrop(ctx, id, parsed.data);
        return {
          ok: true,
          message: d.hold_back_live
            ? `Live products are held back until the drop${d.status === "scheduled" ? "; they are hidden until then." : " (once it has a date)."}`
            : "Live products stay live.",
        };
      }
      case "publish-now": {
        const d = await publishDropNow(ctx, id);
        return { ok: true, message: `Published now; ${d.product_count} product${d.product_count === 1 ? " is" : "s are"} live.` };
      }
      case "status": {
        const parsed = dropsEndpoints.dropsUpdate.body.safeParse({ name: form.get("name"), status: form.get("status") });
        if (!parsed.success) return invalidInput(parsed.error);
        const d = await updateDrop(ctx, id, parsed.data);
        return {
          ok: true,
          message:
            d.status === "cancelled" ? "Drop cancelled; its products are back as they were before it." : d.status === "scheduled" ? "Drop reopened and scheduled again." : "Drop is a draft again.",
        };
      }
      case "schedule": {
        const value = String(form.get("date") ?? "");
        const parsed = dropsEndpoints.dropsSetScheduledPublishDate.body.safeParse({ scheduled_publish_date: utcFromLocalInput(value) ?? undefined });
        if (!parsed.success) return value ? invalidInput(parsed.error) : { ok: false, error: "Choose a publish date" };
        const d = await setScheduledPublishDate(ctx, id, parsed.data.scheduled_publish_date);
        const held = await heldProductCount(ctx.db, id);
        const when = new Date(d.scheduled_publish_date!).toISOString().slice(0, 16).replace("T", " ");
        const others = d.product_count - held;
        return {
          ok: true,
          message:
            others === 0
              ? `Scheduled for ${when} UTC; ${held} product${held === 1 ? "" : "s"} will publish then.`
              : `Scheduled for ${when} UTC; ${held} of ${d.product_count} products will publish then; the other${others === 1 ? " is" : "s are"} live already.`,
        };
      }
      case "products": {
        const parsed = dropsEndpoints.dropsSetCompanions.body.safeParse({ shopify_products_ids: form.getAll("shopify_products_ids") });
        if (!parsed.success) return invalidInput(parsed.error);
        const d = await setDropProducts(ctx, id, parsed.data.shopify_products_ids);
        return { ok: true, message: `The drop has ${d.product_count} product${d.product_count === 1 ? "" : "s"}.` };
      }
      case "notify": {
        const emails = String(form.get("emails") ?? "")
          .split(/[\s,;]+/)
          .map((e) => e.trim())
          .filter(Boolean);
        const parsed = dropsEndpoints.dropsNotifyActiveUsers.body.safeParse({
          emails: form.get("audience") === "emails" ? emails : undefined,
          skip: Number(form.get("skip") || 0),
          limit: Number(form.get("limit") || 100),
        });
        if (!parsed.success) return invalidInput(parsed.error);
        if (parsed.data.emails && parsed.data.emails.length === 0) return { ok: false, error: "Enter at least one email address" };
        const r = await notifyDrop(ctx, id, parsed.data);
        const who = parsed.data.emails ? "addresses" : "active users";
        const which = r.queued > 0 ? `${who} ${r.skip + 1}–${r.skip + r.queued} of ${r.total}` : r.total > 0 ? `Skip ${r.skip} passes all ${r.total} ${who}` : `${who} 0 of 0`;
        return { ok: true, message: `Queued ${r.queued} email${r.queued === 1 ? "" : "s"} (${which}).` };
      }
      case "delete":
        await deleteDrop(ctx, id);
        throw redirect("/app/drops");
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};
const utc = (isoDate: string) => `${new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "short", timeZone: "UTC" }).format(new Date(isoDate))} UTC`;

export default function DropDetail() {
  const { drop, companions } = useLoaderData<typeof loader>();
  const { fetcher, submit, busy, busyWith } = useIntentFetcher<typeof action>();
  const [params, setParams] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [details, setDetails] = useState({ name: drop.name, description: drop.description ?? "", teaser: drop.teaser ?? "", image_url: drop.image_url ?? "" });
  const [confirmPublish, setConfirmPublish] = useState(false);
  const [date, setDate] = useState(drop.scheduled_publish_date ? drop.scheduled_publish_date.slice(0, 16) : "");
  const [audience, setAudience] = useState<"active" | "emails">("active");
  const [notify, setNotify] = useState({ emails: "", skip: "0", limit: "100" });
  const ids = drop.shopify_products_ids;

  const editable = drop.status === "draft" || drop.status === "scheduled";
  const secondary = [
    ...(editable ? [{ content: "Publish now", onAction: () => setConfirmPublish(true) }] : []),
    ...(drop.status === "scheduled" ? [{ content: "Unschedule", onAction: () => submit({ intent: "status", name: drop.name, status: "draft" }) }] : []),
    ...(drop.status === "cancelled" ? [{ content: "Reopen", onAction: () => submit({ intent: "status", name: drop.name, status: "draft" }) }] : []),
    ...(editable ? [{ content: "Cancel drop", destructive: true, onAction: () => submit({ intent: "status", name: drop.name, status: "cancelled" }) }] : []),
    { content: "Delete", destructive: true, onAction: () => setConfirmDelete(true) },
  ];

  return (
    <Page
      title={drop.name}
      titleMetadata={<DropStatusBadge status={drop.status} />}
      subtitle={drop.scheduled_publish_date ? utc(drop.scheduled_publish_date) : "No publish date yet"}
      backAction={{ content: "Drops", url: "/app/drops" }}
      secondaryActions={secondary}
    >
      <Layout>
        <ActionBannerSection result={fetcher.data} testId="drop-result" />
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title={`Products (${drop.product_count})`}>
              {editable || drop.status === "published" ? (
                <CatalogueProductPicker searchPath={`/app/drops/${drop.id}`} selected={ids} busy={busy} onAdd={(add) => submit({ intent: "products", shopify_products_ids: [...ids, ...add] })} />
              ) : null}
              {companions.products.length === 0 ? (
                <Text as="p" tone="subdued">
                  No products in this drop yet.
                </Text>
              ) : (
                companions.products.map((p) => (
                  <CuratedProductRow
                    key={p.id}
                    product={p}
                    testId="drop-product"
                    details={p.companion?.scheduled_publish_date ? `Publishes ${p.companion.scheduled_publish_date.slice(0, 16).replace("T", " ")} UTC` : p.publishedAt ? "Published" : "Not scheduled"}
                    onRemove={editable ? () => submit({ intent: "products", shopify_products_ids: ids.filter((x) => x !== p.id) }) : undefined}
                  />
                ))
              )}
              {companions.total > PAGE ? (
                <InlineStack align="center">
                  <Pagination
                    hasPrevious={companions.skip > 0}
                    onPrevious={() => setParams({ ...Object.fromEntries(params), skip: String(Math.max(0, companions.skip - PAGE)) })}
                    hasNext={companions.skip + PAGE < companions.total}
                    onNext={() => setParams({ ...Object.fromEntries(params), skip: String(companions.skip + PAGE) })}
                  />
                </InlineStack>
              ) : null}
            </SectionCard>
            <SectionCard title="Details">
              <FormLayout>
                <TextField label="Name" autoComplete="off" value={details.name} onChange={(name) => setDetails({ ...details, name })} />
                <TextField label="Description" autoComplete="off" multiline={3} value={details.description} onChange={(description) => setDetails({ ...details, description })} />
                <TextField
                  label="Teaser"
                  helpText="Shown to shoppers with the upcoming drop (name, date, image) before it goes live; the description otherwise. At most 280 characters."
                  autoComplete="off"
                  multiline={2}
                  maxLength={280}
                  showCharacterCount
                  value={details.teaser}
                  onChange={(teaser) => setDetails({ ...details, teaser })}
                />
                <TextField label="Image URL" autoComplete="off" value={details.image_url} onChange={(image_url) => setDetails({ ...details, image_url })} />
                <InlineStack align="end">
                  <Button onClick={() => submit({ intent: "update", ...details })} loading={busyWith("update")}>
                    Save details
                  </Button>
                </InlineStack>
              </FormLayout>
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Publish date">
              <Text as="p" tone="subdued">
                Setting a date schedules the products that are not live yet to publish on it; live products stay live unless you hold them back. A date that has passed is refused: use Publish now.
              </Text>
              <Checkbox
                label="Hold back live products until the drop"
                helpText="Live products in this drop are hidden from shoppers until it publishes. Removing them, cancelling or deleting the drop makes them live again."
                checked={drop.hold_back_live}
                disabled={!editable || busy}
                onChange={(on) => submit({ intent: "hold-back", name: drop.name, hold_back_live: String(on) })}
              />
              <TextField label="Publish date (UTC)" type="datetime-local" autoComplete="off" value={date} onChange={setDate} disabled={!editable} />
              <Button variant="primary" onClick={() => submit({ intent: "schedule", date })} loading={busyWith("schedule")} disabled={!editable}>
                Set date
              </Button>
            </SectionCard>
            <SectionCard title="Notify shoppers">
              <ChoiceList
                title="Send the drop notice to"
                choices={[
                  { label: "Active users (viewed a product or ordered in the last 90 days)", value: "active" },
                  { label: "These email addresses", value: "emails" },
                ]}
                selected={[audience]}
                onChange={(v) => setAudience(v[0] as "active" | "emails")}
              />
              {audience === "emails" ? (
                <TextField
                  label="Email addresses"
                  helpText="Separate with commas or new lines."
                  multiline={3}
                  autoComplete="off"
                  value={notify.emails}
                  onChange={(emails) => setNotify({ ...notify, emails })}
                />
              ) : null}
              <FormLayout.Group>
                <TextField label="Skip" type="number" min={0} autoComplete="off" value={notify.skip} onChange={(skip) => setNotify({ ...notify, skip })} />
                <TextField label="Limit" type="number" min={1} max={500} autoComplete="off" value={notify.limit} onChange={(limit) => setNotify({ ...notify, limit })} />
              </FormLayout.Group>
              <Button onClick={() => submit({ intent: "notify", audience, ...notify })} loading={busyWith("notify")} disabled={drop.status === "cancelled"}>
                Send notice
              </Button>
              {drop.notified_at ? (
                <Text as="p" tone="subdued">
                  Last notice queued {utc(drop.notified_at)}.
                </Text>
              ) : null}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <ConfirmModal
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete ${drop.name}?`}
        confirmLabel="Delete drop"
        onConfirm={() => submit({ intent: "delete" })}
        loading={busyWith("delete")}
      >
        <Text as="p">{drop.status === "scheduled" ? "The drop is removed and its products are back as they were before it." : "The drop is removed; its products stay in the catalogue as they are."}</Text>
      </ConfirmModal>
      <ConfirmModal
        open={confirmPublish}
        onClose={() => setConfirmPublish(false)}
        title={`Publish ${drop.name} now?`}
        confirmLabel="Publish now"
        destructive={false}
        onConfirm={() => {
          setConfirmPublish(false);
          submit({ intent: "publish-now" });
        }}
        loading={busyWith("publish-now")}
      >
        <Text as="p">Every product of the drop goes live at once, and shoppers who asked to be told are emailed.</Text>
      </ConfirmModal>
    </Page>
  );
}
