/**
 * One ad request (issue 18; docs/product-ads.md "Ad requests"): its products, the vendor's uploaded
 * images, the chosen features, the brief, the budget and dates, and the ads made from it. "Create
 * ad" makes a PENDING ad for one of the request's products and opens it; "Complete request" closes
 * the request once an ad made from it is past PENDING (the service's 409 otherwise, as a banner).
 * Same services and zod schemas as the API; ads.manage only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, InlineGrid, InlineStack, Layout, Page, Select, Text, Thumbnail } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { AdRequestMessages } from "~/contract/product-ad-requests";
import { ProductAdCreateBody } from "~/contract/product-ads";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { teamCaller, teamViewer } from "~/lib/ads-admin.server";
import { dayText, FEATURE_KIND_LABEL, moneyText, REQUEST_STATUS_LABEL, utcText } from "~/lib/ads-admin-view";
import { completeAdRequest, getAdRequest } from "~/services/product-ads/requests.server";
import { createProductAd } from "~/services/product-ads/ads.server";
import { ActionBannerSection, ConfirmModal, SectionCard, useIntentFetcher } from "~/components/admin";
import { AdStatusBadge } from "~/components/admin/ads/AdParts";

const PLACEHOLDER = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E";
const MISSING = `${AdRequestMessages.NOT_FOUND}: it may have been deleted`;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ads.manage");
  const id = params.id ?? "";
  if (!id) throw staffError(404, MISSING);
  const adRequest = await orNotFound(MISSING, () => getAdRequest(getAppContext().db, teamViewer(user), id));
  return { adRequest };
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "ads.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  const id = params.id ?? "";
  return answerRefusals<ActionResult>(async () => {
    switch (form.get("intent")) {
      case "create-ad": {
        const body = ProductAdCreateBody.safeParse({ request_id: id, product_id: String(form.get("productId") ?? "") });
        if (!body.success) return invalidInput(body.error);
        const ad = await createProductAd(ctx, teamCaller(user), body.data);
        // The new ad's page is where its creatives and copy are made.
        throw redirect(`/app/ads/${encodeURIComponent(ad.id)}`);
      }
      case "complete": {
        await completeAdRequest(ctx.db, teamViewer(user), id);
        return { ok: true, message: "The request is completed." };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

export default function AdRequestPage() {
  const { adRequest: r } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [productId, setProductId] = useState(r.products[0]?.id ?? "");
  const [confirming, setConfirming] = useState(false);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const open = r.status === "open";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setConfirming(false);
  }, [fetcher.state, fetcher.data]);
  const first = r.products[0];

  return (
    <Page
      title={`Ad request from ${r.vendor.name}`}
      titleMetadata={
        <span data-testid="request-status" data-status={r.status}>
          <Badge tone={open ? "attention" : "success"}>{REQUEST_STATUS_LABEL[r.status]}</Badge>
        </span>
      }
      subtitle={`Filed ${utcText(r.created_at)}${r.created_by ? ` by ${r.created_by.name}` : ""}${first ? ` · ${first.title}${r.products.length > 1 ? ` and ${r.products.length - 1} more` : ""}` : ""}`}
      backAction={{ content: "Ad requests", url: "/app/ads/requests" }}
      primaryAction={open ? { content: "Complete request", onAction: () => setConfirming(true), loading: busyWith("complete") } : undefined}
    >
      <Layout>
        {confirming ? null : <ActionBannerSection result={result} testId="request-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title="Brief">
              <Text as="p">
                <span data-testid="request-brief" style={{ whiteSpace: "pre-wrap" }}>
                  {r.brief}
                </span>
              </Text>
              <InlineStack gap="400">
                <Text as="p">
                  Budget: <span data-testid="request-budget">{r.daily_budget === null ? "not given" : `${moneyText({ amount: r.daily_budget, currencyCode: r.currencyCode })} a day`}</span>
                </Text>
                <Text as="p">
                  Dates: {r.start_date ? dayText(r.start_date) : "from approval"} – {r.end_date ? dayText(r.end_date) : "open-ended"}
                </Text>
              </InlineStack>
            </SectionCard>
            <SectionCard title={`Products (${r.products.length})`}>
              {r.products.length === 0 ? (
                <Text as="p" tone="subdued">
                  The request's products were deleted.
                </Text>
              ) : (
                <BlockStack gap="200">
                  {r.products.map((p) => (
                    <div key={p.id} data-testid="request-product">
                      <InlineStack gap="200" blockAlign="center">
                        <Thumbnail size="small" source={p.featuredImage?.url ?? PLACEHOLDER} alt={p.featuredImage?.altText ?? p.title} />
                        <Text as="span">{p.title}</Text>
                      </InlineStack>
                    </div>
                  ))}
                </BlockStack>
              )}
            </SectionCard>
            <SectionCard title={`Vendor's images (${r.uploaded_images.length})`}>
              {r.uploaded_images.length === 0 ? (
                <Text as="p" tone="subdued">
                  No image uploaded: the creatives start from the product's own images.
                </Text>
              ) : (
                <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
                  {r.uploaded_images.map((img) => (
                    <a key={img.id} href={img.url} target="_blank" rel="noreferrer" data-testid="request-image">
                      <img src={img.url} alt="Uploaded by the vendor" style={{ width: "100%", aspectRatio: "1", objectFit: "cover", borderRadius: 8 }} />
                    </a>
                  ))}
                </InlineGrid>
              )}
            </SectionCard>
            <SectionCard title={`Ads made from it (${r.ads.length})`}>
              {r.ads.length === 0 ? (
                <Text as="p" tone="subdued">
                  No ad yet.
                </Text>
              ) : (
                <BlockStack gap="200">
                  {r.ads.map((a) => (
                    <div key={a.id} data-testid="request-ad">
                      <InlineStack gap="200" blockAlign="center">
                        <Link to={`/app/ads/${encodeURIComponent(a.id)}`}>{a.headline || `Ad for ${a.product.title}`}</Link>
                        <AdStatusBadge status={a.status} />
                        <Text as="span" tone="subdued" variant="bodySm">
                          {a.product.title} · {dayText(a.created_at)}
                        </Text>
                      </InlineStack>
                    </div>
                  ))}
                </BlockStack>
              )}
              {open && r.products.length > 0 ? (
                <InlineStack gap="200" blockAlign="end">
                  <div style={{ minWidth: "16rem" }}>
                    <Select label="Product to advertise" options={r.products.map((p) => ({ value: p.id, label: p.title }))} value={productId} onChange={setProductId} />
                  </div>
                  <Button variant="primary" loading={busyWith("create-ad")} onClick={() => submit({ intent: "create-ad", productId })}>
                    Create ad
                  </Button>
                </InlineStack>
              ) : null}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Features">
              {r.features.length === 0 ? (
                <Text as="p" tone="subdued">
                  None.
                </Text>
              ) : (
                <BlockStack gap="100">
                  {r.features.map((f) => (
                    <div key={f.id} data-testid="request-feature">
                      <InlineStack gap="100" blockAlign="center">
                        <Text as="span">{f.name}</Text>
                        <Badge>{FEATURE_KIND_LABEL[f.kind].replace(/s$/, "")}</Badge>
                        {f.active ? null : <Badge tone="warning">No longer offered</Badge>}
                      </InlineStack>
                    </div>
                  ))}
                </BlockStack>
              )}
            </SectionCard>
            <SectionCard title="Vendor">
              <Link to={`/app/ads?vendorId=${encodeURIComponent(r.vendor.id)}`}>{r.vendor.name}</Link>
              {r.completed_at ? (
                <Text as="p" tone="subdued">
                  Completed {utcText(r.completed_at)}
                </Text>
              ) : null}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {confirming ? (
        <ConfirmModal
          title="Complete this request?"
          confirmLabel="Complete request"
          destructive={false}
          loading={busyWith("complete")}
          error={result && !result.ok ? result.error : null}
          errorTestId="request-complete-error"
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setDismissed(null);
            submit({ intent: "complete" });
          }}
        >
          <Text as="p">A completed request is read-only: new ads are made from open requests. At least one ad made from it must be past Pending.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}
