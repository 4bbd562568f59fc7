/**
 * Socials content (issue 19), one screen for the team (/app/socials, every vendor, a vendor
 * filter) and for a vendor (/app/vendor/socials, its own): drafts generated from a product, the
 * list with status and platform filters, and the chosen post's editor (caption, hashtags,
 * schedule) with its status moves (schedule, back to draft, mark published) and delete. The post
 * being edited is in the URL (`?edit=<id>`), so the page works without client state.
 */
import { Form, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, InlineStack, Layout, Link, Page, Select, Text, TextField, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { ActionBanner } from "~/components/admin/ActionBanner";
import { CursorFooter } from "~/components/admin/CursorFooter";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { thumbnailUrl } from "~/client/images";
import type { loadSocialsPage, SocialsActionResult } from "~/lib/socials-pages.server";

type Data = Awaited<ReturnType<typeof loadSocialsPage>>;
type Item = Data["items"][number];

const PLACEHOLDER = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E";
const STATUS_TONE: Record<string, "info" | "attention" | "success" | undefined> = { draft: undefined, scheduled: "attention", published: "success" };
const MOVE_LABEL: Record<string, string> = { draft: "Back to draft", scheduled: "Schedule", published: "Mark published" };
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const utcText = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

function filterHref(data: Data, change: Record<string, string>) {
  const sp = new URLSearchParams();
  const next = { ...data.filters, ...change };
  for (const [k, v] of Object.entries(next)) if (v) sp.set(k, v);
  const q = sp.toString();
  return `${data.base}${q ? `?${q}` : ""}`;
}

function Generate({ data }: { data: Data }) {
  const [companion, setCompanion] = useState(data.products[0]?.id ?? "");
  const [platforms, setPlatforms] = useState<string[]>([...data.platforms]);
  const [images, setImages] = useState(true);
  const busy = useNavigation().formData?.get("intent") === "generate";
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="generate" />
        <input type="hidden" name="companion_id" value={companion} />
        {platforms.map((p) => (
          <input key={p} type="hidden" name="platforms" value={p} />
        ))}
        {images ? <input type="hidden" name="images" value="on" /> : null}
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Generate drafts for a product
          </Text>
          <Select label="Product" options={data.products.map((p) => ({ label: p.title, value: p.id }))} value={companion} onChange={setCompanion} disabled={!data.products.length} />
          <InlineStack gap="300">
            {data.platforms.map((p) => (
              <Checkbox key={p} label={capital(p)} checked={platforms.includes(p)} onChange={(on) => setPlatforms((ps) => (on ? [...ps, p] : ps.filter((x) => x !== p)))} />
            ))}
          </InlineStack>
          <Checkbox label="Make a square (1:1) and a vertical (9:16) image from the product photo" checked={images} onChange={setImages} />
          <InlineStack>
            <Button submit variant="primary" loading={busy} disabled={!companion || !platforms.length}>
              Generate drafts
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

function Editor({ item, base }: { item: Item; base: string }) {
  const [caption, setCaption] = useState(item.caption);
  const [hashtags, setHashtags] = useState(item.hashtags.map((h) => `#${h}`).join(" "));
  const [schedule, setSchedule] = useState(item.scheduled_at ? item.scheduled_at.slice(0, 16) : "");
  const final = item.status === "published";
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {capital(item.platform)} post for {item.product.title}
          </Text>
          <Link url={base}>Close</Link>
        </InlineStack>
        {item.media_urls.length ? (
          <InlineStack gap="200">
            {item.media_urls.map((u) => (
              <Thumbnail key={u} size="large" source={thumbnailUrl(u)} alt="" />
            ))}
          </InlineStack>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="id" value={item.id} />
          <BlockStack gap="300">
            <TextField label="Caption" name="caption" value={caption} onChange={setCaption} multiline={4} autoComplete="off" disabled={final} />
            <TextField label="Hashtags" name="hashtags" value={hashtags} onChange={setHashtags} helpText="Separated by spaces or commas" autoComplete="off" disabled={final} />
            <TextField label="Scheduled for (UTC)" name="scheduled_at" type="datetime-local" value={schedule} onChange={setSchedule} autoComplete="off" disabled={final} />
            {final ? (
              <Text as="p" tone="subdued">
                Published {utcText(item.published_at)}: published posts are final.
              </Text>
            ) : (
              <InlineStack>
                <Button submit>Save</Button>
              </InlineStack>
            )}
          </BlockStack>
        </Form>
        <InlineStack gap="200">
          {item.next_statuses.map((s) => (
            <Form method="post" key={s}>
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="id" value={item.id} />
              <input type="hidden" name="status" value={s} />
              <Button submit variant={s === "published" ? "primary" : undefined}>
                {MOVE_LABEL[s] ?? s}
              </Button>
            </Form>
          ))}
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={item.id} />
            <Button submit tone="critical">
              Delete
            </Button>
          </Form>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

export function SocialsContentScreen() {
  const data = useLoaderData<Data>() as unknown as Data;
  const result = useActionData<SocialsActionResult>();
  const filterOptions = (values: readonly string[], all: string) => [{ label: all, value: "" }, ...values.map((v) => ({ label: capital(v), value: v }))];
  const navigate = useNavigate();
  const go = (href: string) => navigate(href);
  return (
    <Page title="Socials content" subtitle="Posts about products for Instagram, TikTok, Pinterest and Facebook: generate, edit, schedule, mark published.">
      <Layout>
        {result ? (
          <Layout.Section>
            <ActionBanner result={result} testId="socials-result" />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            {data.editing ? <Editor key={`${data.editing.id}-${data.editing.updated_at}`} item={data.editing} base={data.base} /> : null}
            <Generate data={data} />
            <Card padding="0">
              <Box padding="300">
                <InlineStack gap="300">
                  <Select label="Status" labelInline options={filterOptions(data.statuses, "All")} value={data.filters.status} onChange={(v) => go(filterHref(data, { status: v }))} />
                  <Select label="Platform" labelInline options={filterOptions(data.platforms, "All")} value={data.filters.platform} onChange={(v) => go(filterHref(data, { platform: v }))} />
                  {data.team ? (
                    <Select
                      label="Vendor"
                      labelInline
                      options={[{ label: "All vendors", value: "" }, ...data.vendors.map((v) => ({ label: v.name, value: v.id }))]}
                      value={data.filters.vendorId}
                      onChange={(v) => go(filterHref(data, { vendorId: v }))}
                    />
                  ) : null}
                </InlineStack>
              </Box>
              <ResponsiveIndexTable
                resourceName={{ singular: "post", plural: "posts" }}
                itemCount={data.items.length}
                selectable={false}
                headings={[{ title: "Product" }, { title: "Platform" }, { title: "Caption" }, { title: "Status" }, { title: "Scheduled" }]}
                emptyState={
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      <span data-testid="socials-empty">No post matches: generate drafts for a product above.</span>
                    </Text>
                  </Box>
                }
              >
                {data.items.map((item, i) => (
                  <ResponsiveRow id={item.id} key={item.id} position={i}>
                    <ResponsiveCell>
                      <InlineStack gap="200" blockAlign="center" wrap={false}>
                        <Thumbnail size="small" source={item.media_urls[0] ? thumbnailUrl(item.media_urls[0]) : PLACEHOLDER} alt="" />
                        <Link url={filterHref(data, { edit: item.id })} dataPrimaryLink>
                          {item.product.title}
                        </Link>
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>{capital(item.platform)}</ResponsiveCell>
                    <ResponsiveCell>
                      <div style={{ maxWidth: "22rem" }} title={item.caption}>
                        <Text as="span" variant="bodySm" truncate>
                          {item.caption}
                        </Text>
                      </div>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <span data-testid="socials-status" data-status={item.status}>
                        <Badge tone={STATUS_TONE[item.status]}>{capital(item.status)}</Badge>
                      </span>
                    </ResponsiveCell>
                    <ResponsiveCell>{utcText(item.scheduled_at)}</ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
              <CursorFooter summary={`${data.items.length} post${data.items.length === 1 ? "" : "s"} on this page`} cursor={data.cursor} trail={data.trail} nextCursor={data.nextCursor} />
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
