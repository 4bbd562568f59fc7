/**
 * One Taobao import job: status, step and progress (polled every second while it runs), attempts
 * and the error of a failed run with a Retry, what the import did (created or updated product,
 * variants, images, proposals, notes), the created product, and the item as the source gave it.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { useEffect } from "react";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { getImportJob, retryImportJob } from "~/services/taobao-import/jobs.server";
import { ImportJobProgress as JobProgress } from "~/components/ImportJobProgress";
import { thumbnailUrl } from "~/client/images";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.import");
  const ctx = getAppContext();
  try {
    const j = await getImportJob(ctx, params.id!);
    return {
      job: { ...j, created_at: iso(j.created_at)!, updated_at: iso(j.updated_at)!, completed_at: iso(j.completed_at), retry_at: iso(j.retry_at) },
      sourceJson: j.source_payload ? JSON.stringify(j.source_payload, null, 2) : null,
    };
  } catch (e) {
    const err = toApiError(e);
    if (err.status === 404) throw staffError(404, "This import job does not exist");
    throw e;
  }
};

type ActionResult = { ok: true; message: string } | { ok: false; error: string };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.import");
  try {
    await retryImportJob(getAppContext(), params.id!);
    return { ok: true, message: "The job is queued again." };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, error: err.message };
  }
};

const TONE = { queued: "info", running: "attention", completed: "success", failed: "critical" } as const;

export default function ImportJobPage() {
  const { job, sourceJson } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const retry = useFetcher<typeof action>();
  const active = job.status === "queued" || job.status === "running";
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1000);
    return () => clearInterval(t);
  }, [active, revalidator]);
  const r = job.result;
  const source = job.source_payload as { images?: string[]; title?: string; url?: string; priceCny?: number; shop?: { name?: string } } | null;

  return (
    <Page
      backAction={{ content: "Taobao import", url: "/app/import" }}
      title={`Taobao item ${job.taobao_product_id}`}
      titleMetadata={<Badge tone={TONE[job.status]}>{job.status[0].toUpperCase() + job.status.slice(1)}</Badge>}
      subtitle={`Into ${job.store_name} · submitted ${new Date(job.created_at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}`}
      primaryAction={job.status === "failed" ? { content: "Retry", loading: retry.state !== "idle", onAction: () => retry.submit({}, { method: "post" }) } : undefined}
    >
      <Layout>
        {retry.data ? (
          <Layout.Section>
            <Banner tone={retry.data.ok ? "success" : "critical"}>{retry.data.ok ? retry.data.message : retry.data.error}</Banner>
          </Layout.Section>
        ) : null}
        {job.error_message ? (
          <Layout.Section>
            <Banner tone={job.status === "failed" ? "critical" : "warning"} title={job.status === "failed" ? "The import failed" : "The last attempt failed; the job will run again"}>
              <BlockStack gap="100">
                <Text as="p">
                  <span data-testid="import-job-error">{job.error_message}</span>
                </Text>
                {r?.detail ? (
                  <Text as="p" tone="subdued">
                    {r.detail}
                  </Text>
                ) : null}
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Progress
              </Text>
              <div style={{ maxWidth: 420 }}>
                <JobProgress job={{ status: job.status, progress: job.progress, step: job.step, attempts: job.attempts, maxAttempts: job.max_attempts, error: job.error_message, retryAt: job.retry_at }} />
              </div>
              <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
                <Fact label="Step" value={job.step ?? "—"} />
                <Fact label="Attempts" value={`${job.attempts} of ${job.max_attempts}`} />
                <Fact label="Batch" value={job.batch_id ? job.batch_id.slice(0, 8) : "—"} />
                <Fact label="Finished" value={job.completed_at ? new Date(job.completed_at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }) : "—"} />
              </InlineGrid>
            </BlockStack>
          </Card>
        </Layout.Section>
        {job.product ? (
          <Layout.Section>
            <Card>
              <InlineStack gap="400" blockAlign="center">
                <Thumbnail source={thumbnailUrl(job.product.featuredImageUrl)} alt={job.product.title} size="large" />
                <BlockStack gap="100">
                  <Text as="h2" variant="headingMd">
                    {r?.action === "updated" ? "Updated product" : "Created product"}
                  </Text>
                  <Link to={`/app/products/${encodeURIComponent(job.product.id)}`} data-testid="import-product-link">
                    {job.product.title}
                  </Link>
                  <Text as="span" tone="subdued">
                    {job.product.status} · {job.product.handle}
                  </Text>
                </BlockStack>
              </InlineStack>
            </Card>
          </Layout.Section>
        ) : null}
        {r && r.action ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  What the import did
                </Text>
                <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
                  <Fact label="Variants" value={String(r.variants ?? "—")} />
                  <Fact label="Images" value={`${r.images ?? 0}${r.duplicate_images ? ` (${r.duplicate_images} duplicates skipped)` : ""}`} />
                  <Fact label="Proposed variant images" value={String(r.proposed_images ?? 0)} />
                  <Fact label="Price" value={r.price_range ? `${r.price_range.min}–${r.price_range.max}` : "—"} />
                  <Fact label="Pricing rule" value={r.currency_rule ?? "—"} />
                  <Fact label="Translation" value={r.translation ?? "—"} />
                  <Fact label="Original title" value={r.taobao_title ?? "—"} />
                  <Fact label="Took" value={r.duration_ms !== undefined ? `${(r.duration_ms / 1000).toFixed(1)} s` : "—"} />
                </InlineGrid>
                {r.notes?.length ? (
                  <BlockStack gap="100">
                    {r.notes.map((n) => (
                      <Text as="p" key={n} tone="subdued">
                        · {n}
                      </Text>
                    ))}
                  </BlockStack>
                ) : null}
                {r.proposed_images ? (
                  <InlineStack>
                    <Button url="/app/proposed-images" variant="plain">
                      Review the proposed variant images
                    </Button>
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Source payload
              </Text>
              {source ? (
                <>
                  <Text as="p">
                    {source.title} · {source.priceCny} CNY · {source.shop?.name}{" "}
                    {source.url ? (
                      <a href={source.url} target="_blank" rel="noreferrer">
                        on Taobao
                      </a>
                    ) : null}
                  </Text>
                  <Box background="bg-surface-secondary" padding="300" borderRadius="200">
                    <pre data-testid="import-source-payload" style={{ margin: 0, maxHeight: 420, overflow: "auto", fontSize: 12, whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                      {sourceJson}
                    </pre>
                  </Box>
                </>
              ) : (
                <Text as="p" tone="subdued">
                  The item was not fetched {job.status === "failed" ? "(the job failed before or while fetching it)" : "yet"}.
                </Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="span">{value}</Text>
    </BlockStack>
  );
}
