/**
 * API keys of the data service (GraphQL at /api/graphql with an `x-api-key` header): the list
 * (name, prefix, created, last used, status), creating a key (shown once, in the dialog, with a
 * copy button and a warning) and revoking one (after a confirmation). Same services and zod
 * schemas as /api/admin/api-keys; needs the `apikeys.manage` permission.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Modal, Page, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useCallback, useRef, useState } from "react";
import { apiKeysEndpoints } from "~/contract/api-keys";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createApiKey, listApiKeys, revokeApiKey } from "~/services/api-keys.server";
import { ActionBanner, ConfirmModal, useFetcherResult } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const LIST_SIZE = 100;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "apikeys.manage");
  const ctx = getAppContext();
  const { items, total } = await listApiKeys(ctx.db, { status: "all", skip: 0, take: LIST_SIZE });
  return { keys: items, total, endpoint: `${new URL(request.url).origin}/api/graphql` };
};

type ActionResult =
  | { ok: true; intent: "create"; message: string; key: string; name: string; keyPrefix: string }
  | { ok: true; intent: "revoke"; message: string }
  | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "apikeys.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = form.get("intent");
  try {
    if (intent === "create") {
      const parsed = apiKeysEndpoints.apiKeysCreate.body.safeParse({ name: form.get("name") ?? "" });
      if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Give the key a name" };
      const { apiKey, key } = await createApiKey(ctx.db, { name: parsed.data.name, createdById: user.id });
      ctx.log.info({ apiKeyId: apiKey.id, keyPrefix: apiKey.key_prefix, by: user.id }, "api key created");
      return { ok: true, intent: "create", message: `Key "${apiKey.name}" created.`, key, name: apiKey.name, keyPrefix: apiKey.key_prefix };
    }
    if (intent === "revoke") {
      const parsed = apiKeysEndpoints.apiKeysRevoke.params.safeParse({ id: form.get("id") ?? "" });
      if (!parsed.success) return { ok: false, error: "Choose a key to revoke" };
      const revoked = await revokeApiKey(ctx.db, parsed.data.id);
      ctx.log.info({ apiKeyId: revoked.id, by: user.id }, "api key revoked");
      return { ok: true, intent: "revoke", message: `Key "${revoked.name}" revoked: requests with it are refused.` };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, error: err.message };
  }
};

type KeyRow = ReturnType<typeof useLoaderData<typeof loader>>["keys"][number];

const formatDate = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : null);

export default function ApiKeysPage() {
  const { keys, total, endpoint } = useLoaderData<typeof loader>();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [notice, setNotice] = useState<{ ok: true; message: string } | null>(null);
  const closeCreate = useCallback(() => setCreating(false), []);
  const closeRevoke = useCallback(() => setRevoking(null), []);
  const active = keys.filter((k) => k.status === "active").length;

  return (
    <Page title="API keys" subtitle="Keys of the data service for backend services" primaryAction={{ content: "Create API key", onAction: () => setCreating(true) }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ActionBanner result={notice} testId="api-keys-result" onDismiss={() => setNotice(null)} />
            <Card>
              <BlockStack gap="200">
                <Text as="p">
                  Backend services read and write shoppers&apos; saved products, saved try-ons, followed stores, vision-search entries and clone training jobs
                  through the GraphQL data service at <code>{endpoint}</code>, sending a key in the <code>x-api-key</code> header. A key gives access to every
                  shopper&apos;s data: give one to each service, and revoke it when the service no longer needs it.
                </Text>
                <Text as="p" tone="subdued">
                  {active} active of {total} keys. Only a hash of each key is stored; the list shows the first characters to recognise it.
                </Text>
              </BlockStack>
            </Card>
            <Card padding="0">
              {keys.length === 0 ? (
                <Box padding="400">
                  <BlockStack gap="200" inlineAlign="start">
                    <Text as="h2" variant="headingMd">
                      No API keys yet
                    </Text>
                    <Text as="p">Create a key for each backend service that calls the data service.</Text>
                    <Button onClick={() => setCreating(true)}>Create API key</Button>
                  </BlockStack>
                </Box>
              ) : (
                <ResponsiveIndexTable
                  resourceName={{ singular: "API key", plural: "API keys" }}
                  itemCount={keys.length}
                  selectable={false}
                  headings={[{ title: "Name" }, { title: "Key" }, { title: "Created" }, { title: "Last used" }, { title: "Status" }, { title: "" }]}
                >
                  {keys.map((k, i) => (
                    <ResponsiveRow id={k.id} key={k.id} position={i}>
                      <ResponsiveCell>
                        <span data-testid="api-key-name">{k.name}</span>
                      </ResponsiveCell>
                      <ResponsiveCell>
                        <code data-testid="api-key-prefix">{k.key_prefix}…</code>
                      </ResponsiveCell>
                      <ResponsiveCell>
                        <BlockStack gap="050">
                          <span>{formatDate(k.created_at)}</span>
                          {k.created_by?.email ? (
                            <Text as="span" tone="subdued" variant="bodySm">
                              by {k.created_by.email}
                            </Text>
                          ) : null}
                        </BlockStack>
                      </ResponsiveCell>
                      <ResponsiveCell>{formatDate(k.last_used_at) ?? "Never"}</ResponsiveCell>
                      <ResponsiveCell>
                        {k.status === "active" ? (
                          <Badge tone="success">Active</Badge>
                        ) : (
                          <Badge tone="critical">{`Revoked ${formatDate(k.revoked_at)?.slice(0, 10) ?? ""}`.trim()}</Badge>
                        )}
                      </ResponsiveCell>
                      <ResponsiveCell>
                        {k.status === "active" ? (
                          <Button variant="plain" tone="critical" accessibilityLabel={`Revoke ${k.name}`} onClick={() => setRevoking(k)}>
                            Revoke
                          </Button>
                        ) : null}
                      </ResponsiveCell>
                    </ResponsiveRow>
                  ))}
                </ResponsiveIndexTable>
              )}
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {creating ? <CreateKeyModal onClose={closeCreate} /> : null}
      {revoking ? <RevokeKeyModal apiKey={revoking} onClose={closeRevoke} onDone={setNotice} /> : null}
    </Page>
  );
}

function CreateKeyModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const [name, setName] = useState("");
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const keyField = useRef<HTMLDivElement>(null);
  const created = fetcher.data?.ok && fetcher.data.intent === "create" ? fetcher.data : null;
  const busy = fetcher.state !== "idle";

  const submit = () => fetcher.submit({ intent: "create", name }, { method: "post" });
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("copied");
    } catch {
      // No clipboard access (an insecure origin, or refused): select the text so that Ctrl+C copies it.
      keyField.current?.querySelector("input")?.select();
      setCopied("failed");
    }
  };

  if (created) {
    return (
      <Modal open onClose={onClose} title={`API key "${created.name}"`} primaryAction={{ content: "Done", onAction: onClose }}>
        <Modal.Section>
          <BlockStack gap="300">
            <Banner tone="warning" title="Copy this key now">
              <p>
                This is the only time the key is shown. Only a hash is stored, so it cannot be shown again: if it is lost, revoke it and create a new one.
                Keep it in the calling service&apos;s secret store, never in a browser or a repository.
              </p>
            </Banner>
            <div ref={keyField}>
              <TextField label="API key" value={created.key} readOnly autoComplete="off" monospaced selectTextOnFocus />
            </div>
            <InlineStack gap="200" blockAlign="center">
              <Button onClick={copy}>Copy key</Button>
              {copied === "copied" ? (
                <Text as="span" tone="success">
                  Copied to the clipboard.
                </Text>
              ) : copied === "failed" ? (
                <Text as="span" tone="subdued">
                  The key is selected: press Ctrl+C (⌘C) to copy it.
                </Text>
              ) : null}
            </InlineStack>
            <Text as="p" tone="subdued">
              Send it as <code>x-api-key: {created.keyPrefix}…</code> with POST requests to /api/graphql.
            </Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      title="Create API key"
      primaryAction={{ content: "Create key", onAction: submit, loading: busy, disabled: !name.trim() }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <ActionBanner result={fetcher.data} errorsOnly />
          <TextField
            label="Name"
            helpText="Who uses the key, e.g. “Recommendations backend”."
            autoComplete="off"
            value={name}
            onChange={setName}
            maxLength={100}
          />
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

function RevokeKeyModal({ apiKey, onClose, onDone }: { apiKey: KeyRow; onClose: () => void; onDone: (result: { ok: true; message: string }) => void }) {
  const fetcher = useFetcher<typeof action>();
  useFetcherResult(
    fetcher,
    (r) => {
      if (!r.ok) return;
      onDone(r);
      onClose();
    },
    { whenIdle: false },
  );
  return (
    <ConfirmModal
      title={`Revoke "${apiKey.name}"?`}
      confirmLabel="Revoke key"
      loading={fetcher.state !== "idle"}
      onConfirm={() => fetcher.submit({ intent: "revoke", id: apiKey.id }, { method: "post" })}
      onClose={onClose}
      error={fetcher.data && !fetcher.data.ok ? fetcher.data.error : null}
    >
      <Text as="p">
        Services that send the key <code>{apiKey.key_prefix}…</code> will be refused at once. This cannot be undone: a service that still needs access gets a new key.
      </Text>
    </ConfirmModal>
  );
}
