/**
 * One product and its companion: verify, status with a reason, scheduled publishing, images in
 * order, variants with presale toggles, option values (rename, delete), material sections,
 * inventory from the store, delete. Same services and zod schemas as /api/products and
 * /api/shopify/companion.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  Checkbox,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Modal,
  Page,
  Select,
  Text,
  TextField,
  Thumbnail,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { COMPANION_TRANSITIONS, companionEndpoints, type CompanionStatus, type MaterialSection } from "~/contract/companion";
import { productsEndpoints } from "~/contract/products";
import { getAppContext } from "~/context.server";
import { orNotFound, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { GENDER_LABEL } from "~/components/admin";
import { appendVariantMedia, deleteProduct, getProductDetail, setMediaOrder } from "~/services/catalog.server";
import {
  applyMaterialSections,
  createCompanion,
  deleteOptionValue,
  getCompanion,
  reanalyzeMaterials,
  renameOptionValue,
  scheduleProductPublish,
  setPresaleVariants,
  syncCompanionInventory,
  updateCompanion,
  updateCompanionStatus,
  verifyCompanion,
} from "~/services/companion.server";
import { formOf } from "~/lib/body-limit.server";

const COMPANION_LABEL: Record<string, string> = { draft: "Draft", pending_review: "Pending review", active: "Active", archived: "Archived" };
const productStatusTone = (s: string) => (s === "active" ? "success" : s === "draft" ? "info" : undefined);
const companionTone = (s: string) => (s === "active" ? "success" : s === "pending_review" ? "attention" : s === "draft" ? "info" : undefined);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id ?? "";
  const [product, companion] = await orNotFound("This product does not exist (it may have been deleted).", () =>
    Promise.all([getProductDetail(ctx.db, id, { includeHidden: true }), getCompanion(ctx.db, id)]),
  );
  return { product, companion };
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

const issues = (e: z.ZodError) => e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
const json = (v: FormDataEntryValue | null): unknown => {
  try {
    return JSON.parse(String(v ?? "null"));
  } catch {
    return null;
  }
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult | Response> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id ?? "";
  const form = await formOf(request);
  const intent = String(form.get("intent"));
  const ok = (message: string): ActionResult => ({ ok: true, intent, message });
  const fail = (error: string): ActionResult => ({ ok: false, intent, error });
  try {
    switch (intent) {
      case "create-companion": {
        await createCompanion(ctx.db, { product_id: id });
        return ok("Companion created (draft).");
      }
      case "verify": {
        await verifyCompanion(ctx, id);
        return ok("Verified: the companion and the product are active.");
      }
      case "status": {
        const parsed = companionEndpoints.companionUpdateStatus.body.safeParse({ status: form.get("status"), reason: form.get("reason") || undefined });
        if (!parsed.success) return fail(issues(parsed.error));
        const c = await updateCompanionStatus(ctx, id, parsed.data);
        return ok(`Status changed to ${COMPANION_LABEL[c.status]}.`);
      }
      case "schedule":
      case "clear-schedule": {
        const parsed = companionEndpoints.companionScheduledPublish.body.safeParse({ scheduled_publish_date: intent === "schedule" ? form.get("date") : null });
        if (!parsed.success) return fail("Choose a valid date and time");
        const date = parsed.data.scheduled_publish_date ? new Date(parsed.data.scheduled_publish_date) : null;
        await scheduleProductPublish(ctx, id, date);
        return ok(date ? `Scheduled to publish on ${date.toUTCString()}.` : "Schedule cleared.");
      }
      case "media-order": {
        const parsed = productsEndpoints.productsSetMediaOrder.body.safeParse({ mediaIds: json(form.get("mediaIds")) });
        if (!parsed.success) return fail(issues(parsed.error));
        await setMediaOrder(ctx, id, parsed.data.mediaIds);
        return ok("Image order saved.");
      }
      case "variant-image": {
        const parsed = productsEndpoints.productsVariantMedia.body.safeParse({ pairs: [{ variantId: form.get("variantId"), mediaId: form.get("mediaId") }] });
        if (!parsed.success) return fail(issues(parsed.error));
        await appendVariantMedia(ctx, id, parsed.data.pairs);
        return ok("Variant image saved.");
      }
      case "presale": {
        const parsed = companionEndpoints.companionPresaleVariants.body.safeParse({ variant_ids: form.getAll("variant_ids") });
        if (!parsed.success) return fail(issues(parsed.error));
        await setPresaleVariants(ctx.db, id, parsed.data.variant_ids);
        return ok("Presale variants saved.");
      }
      case "rename-option": {
        const parsed = companionEndpoints.companionUpdateOptionValue.body.safeParse({ optionName: form.get("optionName"), from: form.get("from"), to: form.get("to") });
        if (!parsed.success) return fail(issues(parsed.error));
        await renameOptionValue(ctx, id, parsed.data);
        return ok(`${parsed.data.optionName} “${parsed.data.from}” renamed to “${parsed.data.to}”.`);
      }
      case "delete-option": {
        const parsed = companionEndpoints.companionDeleteOptionValue.body.safeParse({ optionName: form.get("optionName"), value: form.get("value") });
        if (!parsed.success) return fail(issues(parsed.error));
        const r = await deleteOptionValue(ctx, id, parsed.data);
        return ok(`${parsed.data.optionName} “${parsed.data.value}” deleted; ${r.variantCount} variants left.`);
      }
      case "materials-save":
      case "materials-apply": {
        const parsed = companionEndpoints.companionApplyMaterialSections.body.safeParse({ material_sections: json(form.get("sections")) });
        if (!parsed.success) return fail(issues(parsed.error));
        if (intent === "materials-save") await updateCompanion(ctx.db, id, { material_sections: parsed.data.material_sections });
        else await applyMaterialSections(ctx, id, parsed.data.material_sections);
        return ok(intent === "materials-save" ? "Material sections saved." : "Material sections saved and written into the product description.");
      }
      case "materials-reanalyze": {
        const r = await reanalyzeMaterials(ctx.db, id);
        return r.found ? ok(`Composition read: ${r.material_sections[0].content}.`) : fail("No fibres were found in the description or the Taobao title.");
      }
      case "sync-inventory": {
        const r = await syncCompanionInventory(ctx, id);
        return ok(`Inventory read from the store: ${r.totalInventory} in stock.`);
      }
      case "delete-product": {
        await deleteProduct(ctx, id);
        return redirect("/app/products");
      }
      default:
        return fail("Unknown action");
    }
  } catch (e) {
    const err = refusalOf(e);
    const reason = (err.details as { reason?: string } | undefined)?.reason;
    return fail(reason && reason !== err.message ? `${err.message}: ${reason}` : err.message);
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Product = Data["product"];
type CompanionData = NonNullable<Data["companion"]>;

function ResultBanner({ data }: { data: ActionResult | undefined }) {
  if (!data) return null;
  return data.ok ? <Banner tone="success">{data.message}</Banner> : <Banner tone="critical">{data.error}</Banner>;
}

export default function ProductDetail() {
  const { product, companion } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const post = (data: Record<string, string>) => fetcher.submit(data, { method: "post" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.data && !(fetcher.data instanceof Response) ? (fetcher.data as ActionResult) : undefined;
  const scheduled = product.publishedAt && Date.parse(product.publishedAt) > Date.now();

  return (
    <Page
      backAction={{ content: "Products", url: "/app/products" }}
      title={product.title}
      subtitle={[product.vendor, product.productType, GENDER_LABEL[product.target_gender]].filter(Boolean).join(" · ")}
      titleMetadata={
        <InlineStack gap="100">
          <span data-testid="product-status" data-status={product.status}>
            <Badge tone={productStatusTone(product.status)}>{cap(product.status)}</Badge>
          </span>
          {scheduled ? <Badge tone="attention">Scheduled</Badge> : null}
        </InlineStack>
      }
      secondaryActions={[
        { content: "Sync inventory", onAction: () => post({ intent: "sync-inventory" }), disabled: !companion || busy },
        { content: "Delete product", destructive: true, onAction: () => setConfirmDelete(true) },
      ]}
    >
      <Layout>
        {result ? (
          <Layout.Section>
            <div data-testid="product-action-result">
              <ResultBanner data={result} />
            </div>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <ImagesCard product={product} />
            <VariantsCard product={product} companion={companion} />
            <OptionsCard product={product} disabled={!companion} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <CompanionCard companion={companion} />
            <ScheduleCard product={product} companion={companion} />
            {companion ? <MaterialsCard companion={companion} /> : null}
            <Card>
              <BlockStack gap="100">
                <Text as="h2" variant="headingSm">
                  Price and stock
                </Text>
                <Text as="p">
                  {product.priceRange.minVariantPrice.amount === product.priceRange.maxVariantPrice.amount
                    ? `${product.priceRange.minVariantPrice.amount} ${product.priceRange.minVariantPrice.currencyCode}`
                    : `${product.priceRange.minVariantPrice.amount}–${product.priceRange.maxVariantPrice.amount} ${product.priceRange.minVariantPrice.currencyCode}`}
                </Text>
                <Text as="p" tone={product.totalInventory > 0 ? undefined : "critical"}>
                  {product.totalInventory} in stock · {product.availableForSale ? "available for sale" : "not available for sale"}
                </Text>
                <Text as="p" tone="subdued" variant="bodySm">
                  {product.id}
                </Text>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <Modal
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete “${product.title}”?`}
        primaryAction={{ content: "Delete product", destructive: true, loading: busy, onAction: () => post({ intent: "delete-product" }) }}
        secondaryActions={[{ content: "Cancel", onAction: () => setConfirmDelete(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            {result && !result.ok && result.intent === "delete-product" ? <Banner tone="critical">{result.error}</Banner> : null}
            <Text as="p">The product is deleted from the store with its variants, images and companion. This cannot be undone.</Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </Page>
  );
}

function CompanionCard({ companion }: { companion: Data["companion"] }) {
  const fetcher = useFetcher<typeof action>();
  const [open, setOpen] = useState(false);
  const allowed = companion ? COMPANION_TRANSITIONS[companion.status] : [];
  const [status, setStatus] = useState<string>(allowed[0] ?? "");
  const [reason, setReason] = useState("");
  const result = fetcher.data as ActionResult | undefined;
  // The dialog closes as soon as the change is sent; the card shows the new status once the loader
  // revalidates, or the server's message if the change was refused.
  useEffect(() => {
    setStatus(allowed[0] ?? "");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [companion?.status]);

  if (!companion) {
    return (
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingSm">
            Companion
          </Text>
          <Text as="p" tone="subdued">
            This product has no companion yet: no review status, material sections or presale variants.
          </Text>
          <InlineStack>
            <Button onClick={() => fetcher.submit({ intent: "create-companion" }, { method: "post" })} loading={fetcher.state !== "idle"}>
              Create companion
            </Button>
          </InlineStack>
        </BlockStack>
      </Card>
    );
  }
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingSm">
            Companion
          </Text>
          <InlineStack gap="100">
            <span data-testid="companion-status" data-status={companion.status}>
              <Badge tone={companionTone(companion.status)}>{COMPANION_LABEL[companion.status]}</Badge>
            </span>
            {companion.verified_at ? <Badge tone="success">Verified</Badge> : null}
          </InlineStack>
        </InlineStack>
        {companion.status_reason ? (
          <Text as="p" tone="subdued">
            <span data-testid="companion-status-reason">Reason: {companion.status_reason}</span>
          </Text>
        ) : null}
        {companion.verified_at ? (
          <Text as="p" tone="subdued" variant="bodySm">
            Verified {new Date(companion.verified_at).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
          </Text>
        ) : null}
        {companion.taobao_id ? (
          <Text as="p" variant="bodySm">
            Taobao {companion.taobao_id}
            {companion.taobao_title ? ` · ${companion.taobao_title}` : ""}
          </Text>
        ) : null}
        {result && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
        <ButtonGroup>
          <Button onClick={() => setOpen(true)} disabled={!allowed.length || fetcher.state !== "idle"}>
            Change status
          </Button>
          <Button
            variant="primary"
            onClick={() => fetcher.submit({ intent: "verify" }, { method: "post" })}
            loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "verify"}
            disabled={companion.status === "archived" || (companion.status === "active" && !!companion.verified_at)}
          >
            Verify
          </Button>
        </ButtonGroup>
      </BlockStack>
      {/* Mounted only while open: Polaris' exit transition could leave a stale copy of the dialog
          on screen when the card re-rendered with the new status during it (seen in e2e under load). */}
      {open ? (
        <Modal
          open={open}
          onClose={() => setOpen(false)}
          title="Change the companion's status"
          primaryAction={{
            content: "Change status",
            loading: fetcher.state !== "idle",
            onAction: () => {
              // One change at a time: a second activation while the first is in flight is dropped.
              if (fetcher.state === "idle") fetcher.submit({ intent: "status", status, reason }, { method: "post" });
              setOpen(false);
            },
          }}
          secondaryActions={[{ content: "Cancel", onAction: () => setOpen(false) }]}
        >
          <Modal.Section>
            <BlockStack gap="300">
              <Text as="p">
                Now: {COMPANION_LABEL[companion.status]}. The product&apos;s store status follows (active → active, archived → archived, otherwise draft).
              </Text>
              <FormLayout>
                <Select label="New status" options={allowed.map((s: CompanionStatus) => ({ label: COMPANION_LABEL[s], value: s }))} value={status} onChange={setStatus} />
                <TextField label="Reason" autoComplete="off" multiline={2} value={reason} onChange={setReason} helpText="Optional; shown to other admins." maxLength={1000} />
              </FormLayout>
            </BlockStack>
          </Modal.Section>
        </Modal>
      ) : null}
    </Card>
  );
}

/**
 * `datetime-local` value for an ISO date, in UTC like every admin date (the drops' too): the
 * server's first render and the browser's then agree, whatever the admin's time zone.
 */
const toUtcInput = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");
const utcText = (iso: string) => `${new Date(iso).toLocaleString("en-GB", { timeZone: "UTC" })} UTC`;

function ScheduleCard({ product, companion }: { product: Product; companion: Data["companion"] }) {
  const fetcher = useFetcher<typeof action>();
  const [value, setValue] = useState(toUtcInput(companion?.scheduled_publish_date ?? null));
  const result = fetcher.data as ActionResult | undefined;
  const current = companion?.scheduled_publish_date;
  const submit = () => {
    const d = new Date(`${value}Z`);
    fetcher.submit({ intent: "schedule", date: Number.isNaN(d.getTime()) ? "" : d.toISOString() }, { method: "post" });
  };
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          Scheduled publishing
        </Text>
        <Text as="p" tone="subdued">
          {current
            ? `Publishes on ${utcText(current)}`
            : product.publishedAt
              ? `Published ${utcText(product.publishedAt)}`
              : "Not scheduled."}
        </Text>
        {result && (result.intent === "schedule" || result.intent === "clear-schedule") && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
        <TextField label="Publish on (UTC)" type="datetime-local" autoComplete="off" value={value} onChange={setValue} />
        <ButtonGroup>
          <Button onClick={submit} disabled={!value} loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "schedule"}>
            Schedule
          </Button>
          <Button onClick={() => fetcher.submit({ intent: "clear-schedule" }, { method: "post" })} disabled={!current}>
            Clear schedule
          </Button>
        </ButtonGroup>
      </BlockStack>
    </Card>
  );
}

function ImagesCard({ product }: { product: Product }) {
  const fetcher = useFetcher<typeof action>();
  const [order, setOrder] = useState(product.images.map((i) => i.id));
  useEffect(() => setOrder(product.images.map((i) => i.id)), [product.images]);
  const byId = new Map(product.images.map((i) => [i.id, i]));
  const move = (index: number, delta: number) => {
    const next = [...order];
    const [m] = next.splice(index, 1);
    next.splice(index + delta, 0, m);
    setOrder(next);
    fetcher.submit({ intent: "media-order", mediaIds: JSON.stringify(next) }, { method: "post" });
  };
  const result = fetcher.data as ActionResult | undefined;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          Images ({product.images.length})
        </Text>
        {result && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
        {product.images.length === 0 ? (
          <Text as="p" tone="subdued">
            No images.
          </Text>
        ) : (
          <InlineStack gap="300">
            {order.map((id, i) => {
              const img = byId.get(id);
              if (!img) return null;
              return (
                <Box key={id} borderWidth="025" borderColor="border" borderRadius="200" padding="200">
                  <BlockStack gap="100" inlineAlign="center">
                    <Thumbnail size="large" source={img.url} alt={img.altText ?? product.title} />
                    <Text as="span" variant="bodySm" tone="subdued">
                      {i === 0 ? "Featured" : `#${i + 1}`}
                    </Text>
                    <ButtonGroup variant="segmented">
                      <Button size="slim" accessibilityLabel={`Move image ${i + 1} up`} disabled={i === 0 || fetcher.state !== "idle"} onClick={() => move(i, -1)}>
                        ↑
                      </Button>
                      <Button size="slim" accessibilityLabel={`Move image ${i + 1} down`} disabled={i === order.length - 1 || fetcher.state !== "idle"} onClick={() => move(i, 1)}>
                        ↓
                      </Button>
                    </ButtonGroup>
                  </BlockStack>
                </Box>
              );
            })}
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}

function VariantsCard({ product, companion }: { product: Product; companion: Data["companion"] }) {
  const fetcher = useFetcher<typeof action>();
  const image = useFetcher<typeof action>();
  const presale = new Set(companion?.presale_variant_ids ?? []);
  const pending = fetcher.formData ? new Set(fetcher.formData.getAll("variant_ids").map(String)) : null;
  const shown = pending ?? presale;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(shown);
    if (on) next.add(id);
    else next.delete(id);
    const data = new FormData();
    data.set("intent", "presale");
    [...next].forEach((v) => data.append("variant_ids", v));
    fetcher.submit(data, { method: "post" });
  };
  const result = (fetcher.data ?? image.data) as ActionResult | undefined;
  const imageOptions = [{ label: "—", value: "" }, ...product.images.map((img, i) => ({ label: `Image ${i + 1}`, value: img.id }))];
  const imageIdOf = (url: string | undefined) => product.images.find((i) => i.url === url)?.id ?? "";
  return (
    <Card padding="0">
      <Box padding="400">
        <BlockStack gap="200">
          <Text as="h2" variant="headingSm">
            Variants ({product.variants.length})
          </Text>
          {result && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
        </BlockStack>
      </Box>
      <IndexTable
        resourceName={{ singular: "variant", plural: "variants" }}
        itemCount={product.variants.length}
        selectable={false}
        headings={[{ title: "Variant" }, { title: "SKU" }, { title: "Colour" }, { title: "Price", alignment: "end" }, { title: "Stock", alignment: "end" }, { title: "Image" }, { title: "Presale" }]}
      >
        {product.variants.map((v, i) => (
          <IndexTable.Row id={v.id} key={v.id} position={i}>
            <IndexTable.Cell>
              <Text as="span" fontWeight="medium">
                {v.title}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>{v.sku ?? "—"}</IndexTable.Cell>
            <IndexTable.Cell>
              {v.colorHex ? (
                <InlineStack gap="100" blockAlign="center">
                  <span style={{ display: "inline-block", width: 14, height: 14, borderRadius: 7, background: v.colorHex, border: "1px solid #ccc" }} />
                  <Text as="span" variant="bodySm">
                    {v.colorHex}
                  </Text>
                </InlineStack>
              ) : (
                "—"
              )}
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric>
                {v.price.amount}
                {v.compareAtPrice ? ` (was ${v.compareAtPrice.amount})` : ""}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric tone={v.quantityAvailable > 0 ? undefined : "critical"}>
                {v.quantityAvailable}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Select
                label={`Image of ${v.title}`}
                labelHidden
                options={imageOptions}
                value={imageIdOf(v.image?.url)}
                onChange={(mediaId) => mediaId && image.submit({ intent: "variant-image", variantId: v.id, mediaId }, { method: "post" })}
              />
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Checkbox label={`Presale ${v.title}`} labelHidden checked={shown.has(v.id)} disabled={!companion} onChange={(on) => toggle(v.id, on)} />
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
    </Card>
  );
}

function OptionsCard({ product, disabled }: { product: Product; disabled: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const [renaming, setRenaming] = useState<{ optionName: string; from: string } | null>(null);
  const [deleting, setDeleting] = useState<{ optionName: string; value: string } | null>(null);
  const [to, setTo] = useState("");
  const result = fetcher.data as ActionResult | undefined;
  useEffect(() => {
    if (result?.ok) {
      setRenaming(null);
      setDeleting(null);
    }
  }, [result]);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          Options
        </Text>
        {disabled ? (
          <Text as="p" tone="subdued">
            Create the companion to edit option values.
          </Text>
        ) : null}
        {result && !result.ok && !renaming && !deleting ? <Banner tone="critical">{result.error}</Banner> : null}
        {product.options.map((o) => (
          <BlockStack key={o.id} gap="100">
            <Text as="h3" variant="headingXs">
              {o.name}
            </Text>
            <InlineStack gap="200" wrap>
              {o.values.map((value) => (
                <Box key={value} borderWidth="025" borderColor="border" borderRadius="200" paddingInline="200" paddingBlock="100">
                  <InlineStack gap="100" blockAlign="center">
                    <Text as="span">{value}</Text>
                    <Button
                      variant="plain"
                      disabled={disabled}
                      accessibilityLabel={`Rename ${o.name} ${value}`}
                      onClick={() => {
                        setTo(value);
                        setRenaming({ optionName: o.name, from: value });
                      }}
                    >
                      Rename
                    </Button>
                    <Button variant="plain" tone="critical" disabled={disabled || o.values.length < 2} accessibilityLabel={`Delete ${o.name} ${value}`} onClick={() => setDeleting({ optionName: o.name, value })}>
                      Delete
                    </Button>
                  </InlineStack>
                </Box>
              ))}
            </InlineStack>
          </BlockStack>
        ))}
      </BlockStack>
      <Modal
        open={!!renaming}
        onClose={() => setRenaming(null)}
        title={renaming ? `Rename ${renaming.optionName} “${renaming.from}”` : ""}
        primaryAction={{ content: "Rename", loading: fetcher.state !== "idle", disabled: !to.trim(), onAction: () => renaming && fetcher.submit({ intent: "rename-option", ...renaming, to }, { method: "post" }) }}
        secondaryActions={[{ content: "Cancel", onAction: () => setRenaming(null) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            {result && !result.ok && renaming ? <Banner tone="critical">{result.error}</Banner> : null}
            <TextField label="New value" autoComplete="off" value={to} onChange={setTo} />
          </BlockStack>
        </Modal.Section>
      </Modal>
      <Modal
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title={deleting ? `Delete ${deleting.optionName} “${deleting.value}”?` : ""}
        primaryAction={{ content: "Delete value and its variants", destructive: true, loading: fetcher.state !== "idle", onAction: () => deleting && fetcher.submit({ intent: "delete-option", ...deleting }, { method: "post" }) }}
        secondaryActions={[{ content: "Cancel", onAction: () => setDeleting(null) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            {result && !result.ok && deleting ? <Banner tone="critical">{result.error}</Banner> : null}
            <Text as="p">Every variant with this value is deleted from the store. This cannot be undone.</Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </Card>
  );
}

function MaterialsCard({ companion }: { companion: CompanionData }) {
  const fetcher = useFetcher<typeof action>();
  const [sections, setSections] = useState<MaterialSection[]>(companion.material_sections);
  useEffect(() => setSections(companion.material_sections), [companion.material_sections]);
  const result = fetcher.data as ActionResult | undefined;
  const set = (i: number, patch: Partial<MaterialSection>) => setSections((s) => s.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const submit = (intent: string) => fetcher.submit({ intent, sections: JSON.stringify(sections) }, { method: "post" });
  const busy = (intent: string) => fetcher.state !== "idle" && fetcher.formData?.get("intent") === intent;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          Material sections
        </Text>
        {result && result.intent.startsWith("materials") ? <ResultBanner data={result} /> : null}
        {sections.map((s, i) => (
          <BlockStack key={i} gap="100">
            <TextField label="Title" autoComplete="off" value={s.title} onChange={(title) => set(i, { title })} />
            <TextField label="Content" autoComplete="off" multiline={2} value={s.content} onChange={(content) => set(i, { content })} />
            <InlineStack align="end">
              <Button variant="plain" tone="critical" onClick={() => setSections((x) => x.filter((_, j) => j !== i))}>
                Remove section
              </Button>
            </InlineStack>
          </BlockStack>
        ))}
        <InlineStack gap="200" wrap>
          <Button onClick={() => setSections((x) => [...x, { title: "", content: "" }])}>Add section</Button>
          <Button onClick={() => fetcher.submit({ intent: "materials-reanalyze" }, { method: "post" })} loading={busy("materials-reanalyze")}>
            Re-analyse
          </Button>
        </InlineStack>
        <ButtonGroup>
          <Button onClick={() => submit("materials-save")} loading={busy("materials-save")}>
            Save
          </Button>
          <Button variant="primary" onClick={() => submit("materials-apply")} loading={busy("materials-apply")}>
            Save and apply to description
          </Button>
        </ButtonGroup>
      </BlockStack>
    </Card>
  );
}
