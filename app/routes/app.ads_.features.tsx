/**
 * The ad features catalogue (issue 18; docs/product-ads.md "Ad features"): formats, placements and
 * extras vendors pick when they file an ad request, by kind and sort order, inactive ones included.
 * Add and edit in a dialog, activate or deactivate, delete (a feature a request chose answers the
 * service's 409 "used by N ad requests: deactivate it instead" as a banner). Same services and zod
 * bodies as /api/product-ad-features; ads.manage only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useCallback, useEffect, useState } from "react";
import { AD_FEATURE_KINDS, AdFeatureCreateBody, AdFeatureKindSchema, AdFeatureUpdateBody, type AdFeature } from "~/contract/product-ad-requests";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { FEATURE_KIND_LABEL, moneyText } from "~/lib/ads-admin-view";
import { createAdFeature, deleteAdFeature, listAdFeatures, updateAdFeature } from "~/services/product-ads/features.server";
import { ActionBannerSection, ConfirmModal, FormModal, StatusTabs, useIntentFetcher, useListParams } from "~/components/admin";

const KIND_TABS = [{ id: "all", label: "All" }, ...AD_FEATURE_KINDS.map((k) => ({ id: k, label: FEATURE_KIND_LABEL[k] }))] as const;
type KindTab = (typeof KIND_TABS)[number]["id"];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "ads.manage");
  const kind = AdFeatureKindSchema.safeParse(new URL(request.url).searchParams.get("kind"));
  // The whole catalogue is small (tens of rows): the tabs count from it.
  const { items } = await listAdFeatures(getAppContext().db, { team: true }, {});
  return { kind: (kind.success ? kind.data : "all") as KindTab, features: items };
};

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v.trim() : undefined;
};

/** The dialog's fields as the API's body: an empty price is "free", an empty description none. */
function featureFields(form: FormData) {
  const price = text(form, "price");
  const description = text(form, "description");
  const sort = text(form, "sort_order");
  return {
    code: text(form, "code"),
    kind: text(form, "kind"),
    name: text(form, "name"),
    description: description === undefined ? undefined : description || null,
    price: price === undefined ? undefined : price === "" ? null : price,
    currencyCode: text(form, "currencyCode") || undefined,
    active: form.has("active") ? form.get("active") === "true" : undefined,
    sort_order: sort === undefined || sort === "" ? undefined : sort,
  };
}

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "ads.manage");
  const db = getAppContext().db;
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    const id = text(form, "featureId") ?? "";
    switch (form.get("intent")) {
      case "create": {
        const body = AdFeatureCreateBody.safeParse(featureFields(form));
        if (!body.success) return invalidInput(body.error);
        const f = await createAdFeature(db, body.data);
        return { ok: true, message: `Added “${f.name}” to the catalogue.` };
      }
      case "update": {
        const body = AdFeatureUpdateBody.safeParse(featureFields(form));
        if (!body.success) return invalidInput(body.error);
        const f = await updateAdFeature(db, id, body.data);
        return { ok: true, message: `Saved “${f.name}”.` };
      }
      case "activate":
      case "deactivate": {
        const f = await updateAdFeature(db, id, { active: form.get("intent") === "activate" });
        return { ok: true, message: f.active ? `“${f.name}” is offered for new requests again.` : `“${f.name}” is no longer offered for new requests; requests that chose it keep it.` };
      }
      case "delete": {
        await deleteAdFeature(db, id);
        return { ok: true, message: "The feature is deleted." };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

type Editing = { mode: "create" } | { mode: "edit"; feature: AdFeature };

export default function AdFeaturesPage() {
  const data = useLoaderData<typeof loader>();
  const { setParams } = useListParams();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const form = useIntentFetcher<typeof action>();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<AdFeature | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const closeEdit = useCallback(() => setEditing(null), []);
  const shown = data.kind === "all" ? data.features : data.features.filter((f) => f.kind === data.kind);
  const count = (id: KindTab) => (id === "all" ? data.features.length : data.features.filter((f) => f.kind === id).length);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDeleting(null);
  }, [fetcher.state, fetcher.data]);
  const busyRow = (intent: string, id: string) => busyWith(intent) && fetcher.formData?.get("featureId") === id;

  return (
    <Page
      title="Ad features"
      subtitle="What vendors choose from when they ask for an ad: formats (at least one per request), placements and extras."
      backAction={{ content: "Ads", url: "/app/ads" }}
      primaryAction={{ content: "Add feature", onAction: () => setEditing({ mode: "create" }) }}
    >
      <Layout>
        {deleting ? null : <ActionBannerSection result={result} testId="features-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        <Layout.Section>
          <Card padding="0">
            <StatusTabs tabs={KIND_TABS} selected={data.kind} idPrefix="features-tab-" count={count} onSelect={(id) => setParams({ kind: id === "all" ? "" : id })} />
            <ResponsiveIndexTable
              resourceName={{ singular: "feature", plural: "features" }}
              itemCount={shown.length}
              selectable={false}
              headings={[{ title: "Feature" }, { title: "Kind" }, { title: "Price", alignment: "end" }, { title: "Order", alignment: "end" }, { title: "Status" }, { title: "" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    <span data-testid="features-empty">No feature of this kind yet.</span>
                  </Text>
                </Box>
              }
            >
              {shown.map((f, i) => (
                <ResponsiveRow id={f.id} key={f.id} position={i}>
                  <ResponsiveCell>
                    {/* The description wraps (cells do not by default): a long one pushed the actions out of the card. */}
                    <div data-testid="feature-row" data-code={f.code} style={{ maxWidth: "26rem", whiteSpace: "normal" }}>
                      <BlockStack gap="050">
                        <Text as="span" fontWeight="semibold">
                          {f.name}
                        </Text>
                        <Text as="span" tone="subdued" variant="bodySm">
                          {f.code}
                          {f.description ? ` · ${f.description}` : ""}
                        </Text>
                      </BlockStack>
                    </div>
                  </ResponsiveCell>
                  <ResponsiveCell>{FEATURE_KIND_LABEL[f.kind]}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {f.price === null ? "Included" : moneyText({ amount: f.price, currencyCode: f.currencyCode })}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {f.sort_order}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>{f.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}</ResponsiveCell>
                  <ResponsiveCell>
                    <InlineStack gap="200" wrap={false} align="end">
                      <Button size="slim" onClick={() => setEditing({ mode: "edit", feature: f })}>
                        Edit
                      </Button>
                      <Button size="slim" loading={busyRow(f.active ? "deactivate" : "activate", f.id)} onClick={() => submit({ intent: f.active ? "deactivate" : "activate", featureId: f.id })}>
                        {f.active ? "Deactivate" : "Activate"}
                      </Button>
                      <Button size="slim" variant="plain" tone="critical" onClick={() => {
                          // The dialog shows only the answer to its own delete.
                          setDismissed(fetcher.data);
                          setDeleting(f);
                        }}
                      >
                        Delete
                      </Button>
                    </InlineStack>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
          </Card>
        </Layout.Section>
      </Layout>
      {editing ? <FeatureModal key={editing.mode === "edit" ? editing.feature.id : "new"} editing={editing} fetcher={form.fetcher} onSubmit={form.submit} onClose={closeEdit} /> : null}
      {deleting ? (
        <ConfirmModal
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete"
          loading={busyWith("delete")}
          error={result && !result.ok ? result.error : null}
          errorTestId="feature-delete-error"
          onClose={() => setDeleting(null)}
          onConfirm={() => submit({ intent: "delete", featureId: deleting.id })}
        >
          <Text as="p">A feature that requests chose cannot be deleted: deactivate it to stop offering it.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function FeatureModal({ editing, fetcher, onSubmit, onClose }: { editing: Editing; fetcher: ReturnType<typeof useIntentFetcher<typeof action>>["fetcher"]; onSubmit: (d: Record<string, string>) => void; onClose: () => void }) {
  const f = editing.mode === "edit" ? editing.feature : null;
  const [code, setCode] = useState(f?.code ?? "");
  const [kind, setKind] = useState<string>(f?.kind ?? "format");
  const [name, setName] = useState(f?.name ?? "");
  const [description, setDescription] = useState(f?.description ?? "");
  const [price, setPrice] = useState(f?.price ?? "");
  const [sort, setSort] = useState(String(f?.sort_order ?? 0));
  const [active, setActive] = useState(f?.active ?? true);
  return (
    <FormModal
      title={f ? `Edit “${f.name}”` : "Add an ad feature"}
      submitLabel={f ? "Save" : "Add feature"}
      fetcher={fetcher}
      onClose={onClose}
      onSubmit={() =>
        onSubmit({ intent: f ? "update" : "create", ...(f ? { featureId: f.id } : {}), code, kind, name, description, price, sort_order: sort, active: String(active) })
      }
    >
      <TextField label="Name" autoComplete="off" value={name} onChange={setName} maxLength={120} />
      <TextField label="Code" autoComplete="off" value={code} onChange={setCode} helpText="Unique, lower case: a–z, 0–9, '_', '.', '-' (e.g. format.carousel)." maxLength={80} />
      <Select label="Kind" options={AD_FEATURE_KINDS.map((k) => ({ value: k, label: FEATURE_KIND_LABEL[k] }))} value={kind} onChange={setKind} />
      <TextField label="Description" autoComplete="off" value={description} onChange={setDescription} multiline={2} maxLength={1000} />
      <TextField label="Price per ad" type="number" min={0} step={0.01} autoComplete="off" value={price} onChange={setPrice} helpText="Empty: included at no extra cost." />
      <TextField label="Sort order" type="number" step={1} autoComplete="off" value={sort} onChange={setSort} />
      <Checkbox label="Offered for new requests" checked={active} onChange={setActive} />
    </FormModal>
  );
}
