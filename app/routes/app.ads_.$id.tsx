/**
 * One product ad (issue 18; docs/product-ads.md): the ads team's workbench. Edit the headline,
 * primary text, call to action and budget while the ad can be edited; the chosen creatives and the
 * candidates (product shots, on a model, copy variants) made by the AI ports, each picked into the
 * ad with one click; the moves the caller may make now (the service's `allowedMoves`: Complete,
 * Approve, Send feedback with its text, Publish, Unpublish); the metrics (KPIs and the daily
 * chart); the timeline with the vendor's feedback; the ads platform's last error. Every write goes
 * through the same service and zod body as the API, and a refusal (409, 422, 502) shows its
 * message as a banner. While image candidates are being made the page follows their job.
 * ads.manage only.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { Banner, BlockStack, Button, ButtonGroup, InlineGrid, InlineStack, Layout, Page, Select, Spinner, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useRef, useState } from "react";
import { AD_HEADLINE_MAX, AD_PRIMARY_TEXT_MAX, ProductAdFeedbackBody, ProductAdMessages, ProductAdNoteBody, ProductAdUpdateBody } from "~/contract/product-ads";
import { AdCopyVariantsBody, AdCreativesGenerateBody } from "~/contract/product-ad-creatives";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { adDaily, teamCaller, toAdDetail } from "~/lib/ads-admin.server";
import { CTA_OPTIONS, ctaLabel, EDITABLE_STATUSES, isAdMove, jobActive, MOVE_DONE, MOVE_LABEL, utcText, type AdDailyView, type AdMove, type CreativeView, type JobProgressView } from "~/lib/ads-admin-view";
import { deleteProductAd, getProductAd, moveProductAd, platformMoveProductAd, updateProductAd } from "~/services/product-ads/ads.server";
import { generateImageCreatives, listCreatives, writeCopyVariants } from "~/services/product-ads/creatives.server";
import { ActionBannerSection, ConfirmModal, SectionCard, useIntentFetcher } from "~/components/admin";
import { AdDailyCharts, AdKpis, AdStatusBadge, AdTimeline, JobProgress } from "~/components/admin/ads/AdParts";
import { vizLinks } from "~/components/admin/VizChart";

export const links: LinksFunction = () => vizLinks;

const MISSING = `${ProductAdMessages.NOT_FOUND}: it may have been deleted`;
const POLL_MS = 1500;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ads.manage");
  const ctx = getAppContext();
  const id = params.id ?? "";
  if (!id) throw staffError(404, MISSING);
  const caller = teamCaller(user);
  // One query after another: the embedded database serves one statement stream at a time.
  const ad = toAdDetail(await orNotFound(MISSING, () => getProductAd(ctx, caller, id)));
  const creatives = await listCreatives(ctx, { vendorId: null }, id, {});
  const daily: AdDailyView[] = await adDaily(ctx, caller, id);
  const job: JobProgressView | null = creatives.job ? { id: creatives.job.id, status: creatives.job.status, progress: creatives.job.progress, error: null } : null;
  return {
    ad,
    candidates: creatives.items.map(
      (c): CreativeView => ({ id: c.id, kind: c.kind, source: c.source, image_url: c.image_url, headline: c.headline, primary_text: c.primary_text, status: c.status, error: c.error }),
    ),
    creativesJob: job,
    daily,
  };
};

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v.trim() : undefined;
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "ads.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  const id = params.id ?? "";
  const caller = teamCaller(user);
  return answerRefusals<ActionResult>(async () => {
    const intent = form.get("intent");
    if (isAdMove(intent)) {
      if (intent === "publish" || intent === "unpublish") {
        await platformMoveProductAd(ctx, caller, id, intent);
      } else if (intent === "feedback") {
        const body = ProductAdFeedbackBody.safeParse({ text: text(form, "text") ?? "" });
        if (!body.success) return invalidInput(body.error);
        await moveProductAd(ctx, caller, id, "feedback", body.data.text);
      } else {
        const body = ProductAdNoteBody.safeParse({ note: text(form, "note") || undefined });
        if (!body.success) return invalidInput(body.error);
        await moveProductAd(ctx, caller, id, intent, body.data.note);
      }
      return { ok: true, message: MOVE_DONE[intent] };
    }
    switch (intent) {
      case "update": {
        const fields = ["headline", "primary_text", "call_to_action", "daily_budget"] as const;
        const body = ProductAdUpdateBody.safeParse(Object.fromEntries(fields.filter((f) => form.has(f)).map((f) => [f, text(form, f)])));
        if (!body.success) return invalidInput(body.error);
        await updateProductAd(ctx, caller, id, body.data);
        return { ok: true, message: "Saved." };
      }
      case "creatives": {
        // The chosen creatives in order, as the page lists them after a pick, a removal or a move.
        const body = ProductAdUpdateBody.safeParse({ creative_urls: form.getAll("url").map(String) });
        if (!body.success) return invalidInput(body.error);
        await updateProductAd(ctx, caller, id, body.data);
        return { ok: true, message: "The ad's creatives are saved." };
      }
      case "use-copy": {
        const candidate = (await listCreatives(ctx, { vendorId: null }, id, { kind: "copy" })).items.find((c) => c.id === text(form, "creativeId"));
        if (!candidate) return { ok: false, error: "This copy variant is no longer there" };
        const body = ProductAdUpdateBody.safeParse({ headline: candidate.headline ?? undefined, primary_text: candidate.primary_text ?? undefined });
        if (!body.success) return invalidInput(body.error);
        await updateProductAd(ctx, caller, id, body.data);
        return { ok: true, message: "The variant's headline and text are in the ad." };
      }
      case "generate": {
        const kind = text(form, "kind");
        const body = AdCreativesGenerateBody.safeParse({ kinds: [kind], count: Number(text(form, "count") || 2), scene: text(form, "scene") || undefined });
        if (!body.success) return invalidInput(body.error);
        const r = await generateImageCreatives(ctx, id, body.data);
        return { ok: true, message: `Making ${r.items.length} ${kind === "on_model" ? "on-model image" : "product shot"}${r.items.length === 1 ? "" : "s"}…` };
      }
      case "copy-variants": {
        const body = AdCopyVariantsBody.safeParse({ count: 3 });
        if (!body.success) return invalidInput(body.error);
        const r = await writeCopyVariants(ctx, id, body.data.count);
        return { ok: true, message: `${r.items.length} copy variant${r.items.length === 1 ? "" : "s"} written.` };
      }
      case "delete": {
        await deleteProductAd(ctx, caller, id);
        throw redirect("/app/ads");
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Ad = Data["ad"];
type Dialog = "feedback" | "complete" | "delete" | null;

const SOURCE_LABEL: Record<string, string> = { product_shot: "Product shot", on_model: "On a model", upload: "Vendor's image", template: "Template", language_model: "Language model" };

export default function AdPage() {
  const { ad, candidates, creativesJob, daily } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const close = useCallback(() => setDialog(null), []);
  const dialogError = result && !result.ok ? result.error : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDialog(null);
  }, [fetcher.state, fetcher.data]);
  const open = (d: Dialog) => {
    setDismissed(fetcher.data);
    setDialog(d);
  };

  // Candidates being made: read the page again until the job is over.
  const making = jobActive(creativesJob) || candidates.some((c) => c.status === "queued");
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator);
  revalidate.current = revalidator;
  useEffect(() => {
    if (!making) return;
    const timer = setInterval(() => {
      if (revalidate.current.state === "idle") revalidate.current.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [making]);

  const editable = EDITABLE_STATUSES.includes(ad.status);
  const moves = ad.allowed_moves;
  const moveButton = (m: AdMove, primary = false) => (
    <Button
      key={m}
      variant={primary ? "primary" : undefined}
      loading={busyWith(m)}
      onClick={() => (m === "feedback" ? open("feedback") : m === "complete" ? open("complete") : submit({ intent: m }))}
    >
      {MOVE_LABEL[m]}
    </Button>
  );
  const setCreatives = (urls: string[]) => submit({ intent: "creatives", url: urls });

  return (
    <Page
      title={ad.headline || "Untitled ad"}
      titleMetadata={<AdStatusBadge status={ad.status} />}
      subtitle={`${ad.product.title} · ${ad.vendor.name}`}
      backAction={{ content: "Ads", url: "/app/ads" }}
      secondaryActions={[
        ...(ad.request_id ? [{ content: "Ad request", url: `/app/ads/requests/${encodeURIComponent(ad.request_id)}` }] : []),
        ...(ad.status !== "LIVE" ? [{ content: "Delete", destructive: true, onAction: () => open("delete") }] : []),
      ]}
    >
      <Layout>
        {dialog ? null : <ActionBannerSection result={result} testId="ad-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        {ad.meta_error ? (
          <Layout.Section>
            <Banner tone="critical" title="The ads platform refused the last request">
              <span data-testid="ad-platform-error">{ad.meta_error}</span>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title="Next step">
              {moves.length ? (
                <div data-testid="ad-moves">
                  <ButtonGroup>{moves.map((m, i) => moveButton(m, i === 0))}</ButtonGroup>
                </div>
              ) : (
                <Text as="p" tone="subdued">
                  <span data-testid="ad-no-moves">{ad.status === "COMPLETED" ? "Waiting for the vendor to approve or send feedback." : "Nothing to do on this ad now."}</span>
                </Text>
              )}
            </SectionCard>
            {editable ? (
              <CopyCard key={`${ad.headline}\n${ad.primary_text}\n${ad.call_to_action}\n${ad.daily_budget.amount}`} ad={ad} busy={busyWith("update")} onSave={(d) => submit({ intent: "update", ...d })} />
            ) : (
              <SectionCard title="Copy">
                <Text as="p" fontWeight="semibold">
                  {ad.headline || "No headline"}
                </Text>
                <Text as="p">
                  <span style={{ whiteSpace: "pre-wrap" }}>{ad.primary_text || "No primary text"}</span>
                </Text>
                <Text as="p" tone="subdued">
                  {ctaLabel(ad.call_to_action)} · {ad.daily_budget.currencyCode === "USD" ? "$" : `${ad.daily_budget.currencyCode} `}
                  {ad.daily_budget.amount} a day · An approved ad cannot be edited.
                </Text>
              </SectionCard>
            )}
            <SectionCard title={`Creatives in the ad (${ad.creative_urls.length})`}>
              {ad.creative_urls.length === 0 ? (
                <Text as="p" tone="subdued">
                  None chosen yet: pick images among the candidates below.
                </Text>
              ) : (
                <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
                  {ad.creative_urls.map((url, i) => (
                    <div key={url} data-testid="ad-creative">
                      <BlockStack gap="100">
                        <img src={url} alt={i === 0 ? "Main creative" : `Creative ${i + 1}`} style={{ width: "100%", aspectRatio: "1", objectFit: "cover", borderRadius: 8 }} />
                        {editable ? (
                          <InlineStack gap="100">
                            {i > 0 ? (
                              <Button size="micro" onClick={() => setCreatives([url, ...ad.creative_urls.filter((u) => u !== url)])}>
                                Make main
                              </Button>
                            ) : null}
                            <Button size="micro" tone="critical" variant="plain" onClick={() => setCreatives(ad.creative_urls.filter((u) => u !== url))}>
                              Remove
                            </Button>
                          </InlineStack>
                        ) : null}
                      </BlockStack>
                    </div>
                  ))}
                </InlineGrid>
              )}
            </SectionCard>
            <Candidates ad={ad} candidates={candidates} job={creativesJob} editable={editable} busyWith={busyWith} onSubmit={submit} onPick={(url) => setCreatives([...ad.creative_urls, url])} />
            <SectionCard title="Performance (all time; daily chart: last 30 days)">
              <AdKpis totals={ad.totals} />
              <AdDailyCharts daily={daily} currencyCode={ad.totals.currencyCode} />
              <Text as="p" tone="subdued" variant="bodySm">
                {ad.metrics_synced_at ? `Metrics synced ${utcText(ad.metrics_synced_at)}.` : "Metrics not synced yet."} Sync them from the Ads page.
              </Text>
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Details">
              <Text as="p">
                Product: <Text as="span">{ad.product.title}</Text>
              </Text>
              <Text as="p">
                Vendor: <Link to={`/app/ads?vendorId=${encodeURIComponent(ad.vendor.id)}`}>{ad.vendor.name}</Link>
              </Text>
              {ad.destination_url ? (
                <Text as="p" breakWord>
                  Destination:{" "}
                  <a href={ad.destination_url} target="_blank" rel="noreferrer">
                    {ad.destination_url}
                  </a>
                </Text>
              ) : null}
              {ad.meta_ad_id ? (
                <Text as="p" tone="subdued" variant="bodySm">
                  Platform ad {ad.meta_ad_id}
                  {ad.published_at ? ` · first live ${utcText(ad.published_at)}` : ""}
                </Text>
              ) : null}
            </SectionCard>
            <SectionCard title="Timeline and feedback">
              <AdTimeline entries={ad.timeline} />
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {dialog === "feedback" ? <FeedbackModal loading={busyWith("feedback")} error={dialogError} onClose={close} onSubmit={(t) => submit({ intent: "feedback", text: t })} /> : null}
      {dialog === "complete" ? <CompleteModal loading={busyWith("complete")} error={dialogError} onClose={close} onSubmit={(note) => submit({ intent: "complete", note })} /> : null}
      {dialog === "delete" ? (
        <ConfirmModal title="Delete this ad?" confirmLabel="Delete ad" loading={busyWith("delete")} error={dialogError} errorTestId="ad-delete-error" onClose={close} onConfirm={() => submit({ intent: "delete" })}>
          <Text as="p">The ad, its creatives, metrics and timeline are deleted. The ad request stays.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function CopyCard({ ad, busy, onSave }: { ad: Ad; busy: boolean; onSave: (d: Record<string, string>) => void }) {
  const [headline, setHeadline] = useState(ad.headline);
  const [primary, setPrimary] = useState(ad.primary_text);
  const [cta, setCta] = useState(ad.call_to_action);
  const [budget, setBudget] = useState(ad.daily_budget.amount);
  return (
    <SectionCard title="Copy and budget">
      <TextField label="Headline" autoComplete="off" value={headline} onChange={setHeadline} maxLength={AD_HEADLINE_MAX} showCharacterCount />
      <TextField label="Primary text" autoComplete="off" value={primary} onChange={setPrimary} multiline={3} maxLength={AD_PRIMARY_TEXT_MAX} showCharacterCount />
      <InlineGrid columns={2} gap="300">
        <Select label="Call to action" options={CTA_OPTIONS.map((o) => ({ ...o }))} value={cta} onChange={setCta} />
        <TextField label="Daily budget" type="number" min={1} step={0.01} autoComplete="off" value={budget} onChange={setBudget} suffix={ad.daily_budget.currencyCode} />
      </InlineGrid>
      <InlineStack align="end">
        <Button variant="primary" loading={busy} onClick={() => onSave({ headline, primary_text: primary, call_to_action: cta, daily_budget: budget })}>
          Save
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function Candidates({
  ad,
  candidates,
  job,
  editable,
  busyWith,
  onSubmit,
  onPick,
}: {
  ad: Ad;
  candidates: CreativeView[];
  job: JobProgressView | null;
  editable: boolean;
  busyWith: (intent: string) => boolean;
  onSubmit: (d: Record<string, string>) => void;
  onPick: (url: string) => void;
}) {
  const images = candidates.filter((c) => c.kind === "image");
  const copies = candidates.filter((c) => c.kind === "copy");
  const [scene, setScene] = useState("");
  return (
    <SectionCard title="Candidates">
      {editable ? (
        <BlockStack gap="200">
          <TextField label="Background (product shots)" autoComplete="off" value={scene} onChange={setScene} placeholder="studio, sunlit beach, city street at dusk…" maxLength={300} />
          <InlineStack gap="200">
            <Button loading={busyWith("generate")} onClick={() => onSubmit({ intent: "generate", kind: "product_shot", scene })}>
              Generate product shots
            </Button>
            <Button loading={busyWith("generate")} onClick={() => onSubmit({ intent: "generate", kind: "on_model" })}>
              On a model
            </Button>
            <Button loading={busyWith("copy-variants")} onClick={() => onSubmit({ intent: "copy-variants" })}>
              Write copy variants
            </Button>
          </InlineStack>
        </BlockStack>
      ) : (
        <Text as="p" tone="subdued">
          An approved ad cannot be edited: its candidates are kept for the record.
        </Text>
      )}
      <JobProgress job={job} label="Making images" testId="ad-creatives-progress" />
      {images.length ? (
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
          {images.map((c) => {
            const chosen = c.image_url !== null && ad.creative_urls.includes(c.image_url);
            return (
              <div key={c.id} data-testid="ad-candidate" data-kind="image" data-status={c.status}>
                <BlockStack gap="100">
                  {c.status === "ready" && c.image_url ? (
                    <img src={c.image_url} alt={SOURCE_LABEL[c.source] ?? c.source} style={{ width: "100%", aspectRatio: "1", objectFit: "cover", borderRadius: 8 }} />
                  ) : c.status === "queued" ? (
                    <div style={{ aspectRatio: "1", display: "grid", placeItems: "center", background: "var(--p-color-bg-surface-secondary)", borderRadius: 8 }}>
                      <Spinner size="small" accessibilityLabel="Being made" />
                    </div>
                  ) : (
                    <Text as="p" tone="critical" variant="bodySm">
                      {c.error ?? "Failed"}
                    </Text>
                  )}
                  <Text as="p" tone="subdued" variant="bodySm">
                    {SOURCE_LABEL[c.source] ?? c.source}
                  </Text>
                  {editable && c.status === "ready" && c.image_url ? (
                    chosen ? (
                      <Text as="span" variant="bodySm">
                        In the ad
                      </Text>
                    ) : (
                      <Button size="micro" onClick={() => onPick(c.image_url!)}>
                        Use in the ad
                      </Button>
                    )
                  ) : null}
                </BlockStack>
              </div>
            );
          })}
        </InlineGrid>
      ) : null}
      {copies.length ? (
        <BlockStack gap="200">
          {copies.map((c) => (
            <div key={c.id} data-testid="ad-candidate" data-kind="copy" data-status={c.status}>
              <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                <BlockStack gap="050">
                  <Text as="p" fontWeight="semibold">
                    {c.headline}
                  </Text>
                  <Text as="p" variant="bodySm">
                    {c.primary_text}
                  </Text>
                </BlockStack>
                {editable ? (
                  <Button size="micro" onClick={() => onSubmit({ intent: "use-copy", creativeId: c.id })}>
                    Use
                  </Button>
                ) : null}
              </InlineStack>
            </div>
          ))}
        </BlockStack>
      ) : null}
      {images.length === 0 && copies.length === 0 ? (
        <Text as="p" tone="subdued">
          No candidate yet.
        </Text>
      ) : null}
    </SectionCard>
  );
}

function FeedbackModal({ loading, error, onClose, onSubmit }: { loading: boolean; error: string | null; onClose: () => void; onSubmit: (text: string) => void }) {
  const [value, setValue] = useState("");
  return (
    <ConfirmModal title="Send feedback" confirmLabel="Send feedback" destructive={false} loading={loading} error={error} errorTestId="feedback-error" onClose={onClose} onConfirm={() => onSubmit(value)}>
      <Text as="p">The ad goes back to Feedback: what should change? The text stays on the ad's timeline.</Text>
      <TextField label="Feedback" autoComplete="off" value={value} onChange={setValue} multiline={4} maxLength={2000} showCharacterCount />
    </ConfirmModal>
  );
}

function CompleteModal({ loading, error, onClose, onSubmit }: { loading: boolean; error: string | null; onClose: () => void; onSubmit: (note: string) => void }) {
  const [value, setValue] = useState("");
  return (
    <ConfirmModal title="Complete this ad?" confirmLabel="Complete" destructive={false} loading={loading} error={error} errorTestId="complete-error" onClose={onClose} onConfirm={() => onSubmit(value)}>
      <Text as="p">The vendor is asked to review it: approve, or send feedback. It needs a headline, primary text and at least one creative.</Text>
      <TextField label="Note for the vendor (optional)" autoComplete="off" value={value} onChange={setValue} multiline={2} maxLength={2000} />
    </ConfirmModal>
  );
}
