/**
 * Filing an ad request (issue 18): the vendor picks 1–10 of its products, uploads images for the
 * team to work from, chooses features from the catalogue (at least one format; prices per ad),
 * writes a brief and sets a daily budget and optional dates. The form posts to the page's action,
 * which checks it with the API's zod body and files it through the requests service; refusals come
 * back per field. Images are uploaded one by one as they are dropped (the page's upload route), so
 * the form posts their ids only.
 */
import { Form, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, Checkbox, DropZone, FormLayout, InlineError, InlineGrid, InlineStack, Layout, Page, Text, TextField, Thumbnail, Button } from "@shopify/polaris";
import { useState } from "react";
import { moneyFormat, num } from "~/components/admin/AnalyticsParts";
import { NoImage } from "~/components/NoImage";
import type { AdFeatureKind, AdFeatureView, AdProductChoice, AdRequestField, AdRequestFormResult, UploadedImageView } from "./ad-views";

export const AD_REQUEST_LIMITS = { products: 10, images: 10, brief: 2000 } as const;

const KIND_TITLE: Record<AdFeatureKind, { title: string; help: string }> = {
  format: { title: "Formats", help: "Choose at least one." },
  placement: { title: "Placements", help: "Where the ad runs. None chosen: the team picks." },
  extra: { title: "Extras", help: "" },
};

export interface VendorAdRequestFormProps {
  title: string;
  backAction: { content: string; url: string };
  products: AdProductChoice[];
  features: AdFeatureView[];
  currencyCode: string;
  /** Where dropped images are sent (multipart, field "file"); answers `{ ok, image }` or `{ ok: false, error }`. */
  uploadUrl: string;
  /** The action's refusal, when the last post was refused. */
  result: AdRequestFormResult | null;
  /** The page's own refusal to show the form (e.g. no products to advertise). */
  loadError?: string | null;
}

type Upload = { name: string; error?: string };

async function uploadImage(url: string, file: File): Promise<{ ok: true; image: UploadedImageView } | { ok: false; error: string }> {
  const fd = new FormData();
  fd.append("file", file);
  try {
    const res = await fetch(url, { method: "POST", body: fd });
    const body = (await res.json().catch(() => ({}))) as { ok?: boolean; image?: UploadedImageView; error?: string; staffError?: string };
    if (res.ok && body.ok && body.image) return { ok: true, image: body.image };
    return { ok: false, error: body.error ?? body.staffError ?? `Upload failed (HTTP ${res.status})` };
  } catch {
    return { ok: false, error: "The upload was interrupted; check the connection and try again" };
  }
}

const FieldError = ({ field, errors }: { field: AdRequestField; errors: Partial<Record<AdRequestField, string>> }) =>
  errors[field] ? (
    <span data-testid={`field-error-${field}`}>
      <InlineError message={errors[field] ?? ""} fieldID={field} />
    </span>
  ) : null;

export function VendorAdRequestForm({ title, backAction, products, features, currencyCode, uploadUrl, result, loadError }: VendorAdRequestFormProps) {
  const navigation = useNavigation();
  const errors = result?.fieldErrors ?? {};
  const [query, setQuery] = useState("");
  const [productIds, setProductIds] = useState<string[]>([]);
  const [featureIds, setFeatureIds] = useState<string[]>([]);
  const [images, setImages] = useState<UploadedImageView[]>([]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [brief, setBrief] = useState("");
  const [budget, setBudget] = useState("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const money = moneyFormat(currencyCode);
  const shown = query.trim() ? products.filter((p) => p.title.toLowerCase().includes(query.trim().toLowerCase())) : products;
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  const featurePrice = features.filter((f) => featureIds.includes(f.id)).reduce((sum, f) => sum + (f.price ? num(f.price) : 0), 0);

  const onDrop = async (_all: File[], accepted: File[], rejected: File[]) => {
    const room = AD_REQUEST_LIMITS.images - images.length;
    const now: Upload[] = [
      ...rejected.map((f) => ({ name: f.name, error: "Not a JPEG, PNG or WebP image" })),
      ...accepted.slice(room).map((f) => ({ name: f.name, error: `At most ${AD_REQUEST_LIMITS.images} images` })),
    ];
    setUploads([...now, ...accepted.slice(0, room).map((f) => ({ name: f.name }))]);
    for (const file of accepted.slice(0, room)) {
      const r = await uploadImage(uploadUrl, file);
      if (r.ok) setImages((list) => [...list, r.image]);
      setUploads((u) => u.map((x) => (x.name === file.name && !x.error ? (r.ok ? { name: "" } : { name: x.name, error: r.error }) : x)).filter((x) => x.name));
    }
  };

  return (
    <Page title={title} backAction={backAction}>
      <Form method="post" data-testid="ad-request-form">
        <Layout>
          {loadError ? (
            <Layout.Section>
              <Banner tone="critical">
                <span data-testid="ad-request-load-error">{loadError}</span>
              </Banner>
            </Layout.Section>
          ) : null}
          {result && !result.ok ? (
            <Layout.Section>
              <Banner tone="critical" title="The request was not filed">
                <span data-testid="ad-request-error">{result.error}</span>
              </Banner>
            </Layout.Section>
          ) : null}
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Products
                </Text>
                <Text as="p" tone="subdued">{`Pick 1 to ${AD_REQUEST_LIMITS.products} of your products (${productIds.length} chosen).`}</Text>
                <TextField label="Search your products" labelHidden placeholder="Search your products" autoComplete="off" value={query} onChange={setQuery} clearButton onClearButtonClick={() => setQuery("")} />
                <FieldError field="product_ids" errors={errors} />
                <div style={{ maxHeight: 360, overflowY: "auto" }}>
                  <BlockStack gap="200">
                    {shown.map((p) => (
                      <InlineStack key={p.id} gap="300" blockAlign="center" wrap={false}>
                        {p.image ? <Thumbnail source={p.image} alt="" size="small" /> : <NoImage width={40} height={40} />}
                        <Checkbox
                          label={p.title}
                          checked={productIds.includes(p.id)}
                          disabled={!productIds.includes(p.id) && productIds.length >= AD_REQUEST_LIMITS.products}
                          onChange={(on) => setProductIds((l) => toggle(l, p.id, on))}
                        />
                        {p.status === "draft" ? <Text as="span" tone="subdued">(draft)</Text> : null}
                      </InlineStack>
                    ))}
                    {shown.length === 0 ? (
                      <Text as="p" tone="subdued">
                        No product matches.
                      </Text>
                    ) : null}
                  </BlockStack>
                </div>
                {productIds.map((id) => (
                  <input key={id} type="hidden" name="product_ids" value={id} />
                ))}
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Images
                </Text>
                <Text as="p" tone="subdued">{`Up to ${AD_REQUEST_LIMITS.images} photos for the team to make the ad from (JPEG, PNG or WebP). Your products' own images are used too.`}</Text>
                <DropZone accept="image/jpeg,image/png,image/webp" type="image" onDrop={onDrop} disabled={images.length >= AD_REQUEST_LIMITS.images} label="Upload images" labelHidden>
                  <DropZone.FileUpload actionTitle="Add images" actionHint="or drop them here" />
                </DropZone>
                {uploads.map((u, i) => (
                  <Text as="p" key={`${u.name}-${i}`} tone={u.error ? "critical" : "subdued"}>
                    <span data-testid={u.error ? "upload-error" : "upload-busy"}>{u.error ? `${u.name}: ${u.error}` : `Uploading ${u.name}…`}</span>
                  </Text>
                ))}
                <FieldError field="uploaded_image_ids" errors={errors} />
                {images.length ? (
                  <InlineStack gap="300">
                    {images.map((img) => (
                      <BlockStack key={img.id} gap="100" inlineAlign="center">
                        <span data-testid="uploaded-image" data-image-id={img.id}>
                          <Thumbnail source={img.url} alt="" size="large" />
                        </span>
                        <Button variant="plain" tone="critical" onClick={() => setImages((l) => l.filter((x) => x.id !== img.id))}>
                          Remove
                        </Button>
                        <input type="hidden" name="uploaded_image_ids" value={img.id} />
                      </BlockStack>
                    ))}
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  Features
                </Text>
                <FieldError field="feature_ids" errors={errors} />
                <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
                  {(Object.keys(KIND_TITLE) as AdFeatureKind[]).map((kind) => (
                    <BlockStack key={kind} gap="200">
                      <Text as="h3" variant="headingSm">
                        {KIND_TITLE[kind].title}
                      </Text>
                      {KIND_TITLE[kind].help ? (
                        <Text as="p" variant="bodySm" tone="subdued">
                          {KIND_TITLE[kind].help}
                        </Text>
                      ) : null}
                      {features
                        .filter((f) => f.kind === kind)
                        .map((f) => (
                          <Checkbox
                            key={f.id}
                            label={f.price && num(f.price) > 0 ? `${f.name} (+${moneyFormat(f.currencyCode)(f.price)} per ad)` : f.name}
                            helpText={f.description ?? undefined}
                            checked={featureIds.includes(f.id)}
                            onChange={(on) => setFeatureIds((l) => toggle(l, f.id, on))}
                          />
                        ))}
                    </BlockStack>
                  ))}
                </InlineGrid>
                {featureIds.map((id) => (
                  <input key={id} type="hidden" name="feature_ids" value={id} />
                ))}
                <Text as="p" tone="subdued">
                  <span data-testid="features-price">{`Features chosen: ${money(featurePrice)} per ad`}</span>
                </Text>
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <FormLayout>
                <TextField
                  label="Brief"
                  name="brief"
                  multiline={5}
                  autoComplete="off"
                  value={brief}
                  onChange={setBrief}
                  maxLength={AD_REQUEST_LIMITS.brief}
                  showCharacterCount
                  helpText="Who the ad is for, what it should say, any offer."
                  error={errors.brief}
                />
                <FormLayout.Group>
                  <TextField label="Daily budget" name="daily_budget" type="number" min={1} max={10000} step={0.01} prefix={currencyCode} autoComplete="off" value={budget} onChange={setBudget} error={errors.daily_budget} />
                  <TextField label="Start date" name="start_date" type="date" autoComplete="off" value={start} onChange={setStart} error={errors.start_date} />
                  <TextField label="End date" name="end_date" type="date" autoComplete="off" value={end} onChange={setEnd} error={errors.end_date} />
                </FormLayout.Group>
              </FormLayout>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <Box paddingBlockEnd="800">
              <InlineStack align="end" gap="200">
                <Button url={backAction.url}>Cancel</Button>
                <Button variant="primary" submit loading={navigation.state === "submitting"} disabled={uploads.some((u) => !u.error)}>
                  File request
                </Button>
              </InlineStack>
            </Box>
          </Layout.Section>
        </Layout>
      </Form>
    </Page>
  );
}
