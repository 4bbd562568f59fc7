/**
 * Material categories (issue 19; app/contract/materials.ts): the tree, indented by depth, with
 * add (top level or a child), edit (name, handle, keywords, parent: a move), move up / down among
 * siblings, and delete (a category a product uses, or one under it, answers the service's 409 as
 * a banner). Keywords are the words composition texts use for the material ("spandex", "氨纶"):
 * the companion's reanalyze / apply calls map onto the tree with them. catalog.edit only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { MaterialCreateBody, MaterialUpdateBody, type MaterialCategory } from "~/contract/materials";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import {
  createMaterialCategory,
  deleteMaterialCategory,
  listMaterialTree,
  reorderMaterialCategories,
  updateMaterialCategory,
} from "~/services/materials/categories.server";
import { ActionBannerSection, ConfirmModal, FormModal, useIntentFetcher } from "~/components/admin";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  return listMaterialTree(getAppContext().db);
};

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v.trim() : undefined;
};
const keywordsOf = (v: string | undefined) => (v === undefined ? undefined : v.split(/[,，\n]/).map((k) => k.trim()).filter(Boolean));

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const db = getAppContext().db;
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    const id = text(form, "categoryId") ?? "";
    const parent = text(form, "parent_id");
    switch (form.get("intent")) {
      case "create": {
        const body = MaterialCreateBody.safeParse({ name: text(form, "name"), handle: text(form, "handle") || undefined, parent_id: parent || null, keywords: keywordsOf(text(form, "keywords")) });
        if (!body.success) return invalidInput(body.error);
        const c = await createMaterialCategory(db, body.data);
        return { ok: true, message: `Added “${c.name}”.` };
      }
      case "update": {
        const body = MaterialUpdateBody.safeParse({ name: text(form, "name"), handle: text(form, "handle") || undefined, parent_id: parent === undefined ? undefined : parent || null, keywords: keywordsOf(text(form, "keywords")) });
        if (!body.success) return invalidInput(body.error);
        const c = await updateMaterialCategory(db, id, body.data);
        return { ok: true, message: `Saved “${c.name}”.` };
      }
      case "up":
      case "down": {
        // Swap with the neighbour among the siblings, then write the siblings' whole order.
        const { categories } = await listMaterialTree(db);
        const me = categories.find((c) => c.id === id);
        if (!me) return { ok: false, error: "Material category not found" };
        const ids = categories.filter((c) => c.parent_id === me.parent_id).map((c) => c.id);
        const i = ids.indexOf(id);
        const j = form.get("intent") === "up" ? i - 1 : i + 1;
        if (j < 0 || j >= ids.length) return { ok: true, message: `“${me.name}” is already ${j < 0 ? "first" : "last"}.` };
        [ids[i], ids[j]] = [ids[j], ids[i]];
        await reorderMaterialCategories(db, me.parent_id, ids);
        return { ok: true, message: `Moved “${me.name}” ${form.get("intent")}.` };
      }
      case "delete": {
        const r = await deleteMaterialCategory(db, id);
        return { ok: true, message: r.deleted === 1 ? "The category is deleted." : `The category and ${r.deleted - 1} under it are deleted.` };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

type Editing = { mode: "create"; parent: MaterialCategory | null } | { mode: "edit"; category: MaterialCategory };

export default function MaterialsPage() {
  const { categories } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const form = useIntentFetcher<typeof action>();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<MaterialCategory | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const closeEdit = useCallback(() => setEditing(null), []);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDeleting(null);
  }, [fetcher.state, fetcher.data]);
  const busyRow = (intent: string, id: string) => busyWith(intent) && fetcher.formData?.get("categoryId") === id;
  const siblingsOf = (c: MaterialCategory) => categories.filter((x) => x.parent_id === c.parent_id);

  return (
    <Page
      title="Materials"
      subtitle="The material categories shoppers filter search by; product compositions are mapped onto them by their keywords."
      primaryAction={{ content: "Add category", onAction: () => setEditing({ mode: "create", parent: null }) }}
    >
      <Layout>
        {deleting ? null : <ActionBannerSection result={result} testId="materials-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        <Layout.Section>
          <Card padding="0">
            {categories.length === 0 ? (
              <Box padding="400">
                <Text as="p" tone="subdued">
                  No material category yet.
                </Text>
              </Box>
            ) : (
              <ul style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="materials-tree">
                {categories.map((c) => {
                  const sibs = siblingsOf(c);
                  const pos = sibs.findIndex((s) => s.id === c.id);
                  return (
                    <li key={c.id} data-testid="material-row" data-handle={c.handle} data-depth={c.depth} style={{ borderTop: "1px solid var(--p-color-border-secondary)" }}>
                      <Box paddingBlock="200" paddingInlineEnd="300" paddingInlineStart="300">
                        <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                          <div style={{ paddingInlineStart: `${c.depth * 1.5}rem`, minWidth: 0 }}>
                            <BlockStack gap="050">
                              <InlineStack gap="200" blockAlign="center">
                                <Text as="span" fontWeight={c.depth === 0 ? "semibold" : "regular"}>
                                  {c.depth > 0 ? "└ " : ""}
                                  {c.name}
                                </Text>
                                {c.product_count > 0 ? <Badge>{`${c.product_count} product${c.product_count === 1 ? "" : "s"}`}</Badge> : null}
                              </InlineStack>
                              <Text as="span" tone="subdued" variant="bodySm" truncate>
                                {c.handle}
                                {c.keywords.length ? ` · ${c.keywords.join(", ")}` : ""}
                              </Text>
                            </BlockStack>
                          </div>
                          <InlineStack gap="100" wrap={false}>
                            <Button size="slim" accessibilityLabel={`Move ${c.name} up`} disabled={pos === 0} loading={busyRow("up", c.id)} onClick={() => submit({ intent: "up", categoryId: c.id })}>
                              ↑
                            </Button>
                            <Button size="slim" accessibilityLabel={`Move ${c.name} down`} disabled={pos === sibs.length - 1} loading={busyRow("down", c.id)} onClick={() => submit({ intent: "down", categoryId: c.id })}>
                              ↓
                            </Button>
                            <Button size="slim" onClick={() => setEditing({ mode: "create", parent: c })}>
                              Add child
                            </Button>
                            <Button size="slim" onClick={() => setEditing({ mode: "edit", category: c })}>
                              Edit
                            </Button>
                            <Button
                              size="slim"
                              variant="plain"
                              tone="critical"
                              onClick={() => {
                                setDismissed(fetcher.data);
                                setDeleting(c);
                              }}
                            >
                              Delete
                            </Button>
                          </InlineStack>
                        </InlineStack>
                      </Box>
                    </li>
                  );
                })}
              </ul>
            )}
          </Card>
        </Layout.Section>
      </Layout>
      {editing ? (
        <CategoryModal
          key={editing.mode === "edit" ? editing.category.id : `new-${editing.parent?.id ?? "top"}`}
          editing={editing}
          categories={categories}
          fetcher={form.fetcher}
          onSubmit={form.submit}
          onClose={closeEdit}
        />
      ) : null}
      {deleting ? (
        <ConfirmModal
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete"
          loading={busyWith("delete")}
          error={result && !result.ok ? result.error : null}
          errorTestId="material-delete-error"
          onClose={() => setDeleting(null)}
          onConfirm={() => submit({ intent: "delete", categoryId: deleting.id })}
        >
          <Text as="p">Its subcategories are deleted with it. A category that products use (or one under it) cannot be deleted: move those products' materials first.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function CategoryModal({
  editing,
  categories,
  fetcher,
  onSubmit,
  onClose,
}: {
  editing: Editing;
  categories: MaterialCategory[];
  fetcher: ReturnType<typeof useIntentFetcher<typeof action>>["fetcher"];
  onSubmit: (d: Record<string, string>) => void;
  onClose: () => void;
}) {
  const c = editing.mode === "edit" ? editing.category : null;
  const [name, setName] = useState(c?.name ?? "");
  const [handle, setHandle] = useState(c?.handle ?? "");
  const [keywords, setKeywords] = useState(c?.keywords.join(", ") ?? "");
  const [parent, setParent] = useState(c ? (c.parent_id ?? "") : editing.mode === "create" ? (editing.parent?.id ?? "") : "");
  // A category cannot go under itself or anything under it.
  const excluded = new Set<string>();
  if (c) for (const x of categories) if (x.path.slice(0, c.path.length).join("/") === c.path.join("/")) excluded.add(x.id);
  const parents = [{ value: "", label: "— Top level —" }, ...categories.filter((x) => !excluded.has(x.id)).map((x) => ({ value: x.id, label: `${"  ".repeat(x.depth)}${x.depth ? "└ " : ""}${x.name}` }))];
  return (
    <FormModal
      title={c ? `Edit “${c.name}”` : editing.mode === "create" && editing.parent ? `Add a category under “${editing.parent.name}”` : "Add a material category"}
      submitLabel={c ? "Save" : "Add category"}
      fetcher={fetcher}
      onClose={onClose}
      onSubmit={() => onSubmit({ intent: c ? "update" : "create", ...(c ? { categoryId: c.id } : {}), name, handle, keywords, parent_id: parent })}
    >
      <TextField label="Name" autoComplete="off" value={name} onChange={setName} maxLength={80} />
      <TextField label="Handle" autoComplete="off" value={handle} onChange={setHandle} maxLength={80} helpText="Used in search filters (e.g. merino). Empty: made from the name." />
      <Select label="Parent" options={parents} value={parent} onChange={setParent} helpText={c ? "Moving a category moves everything under it." : undefined} />
      <TextField label="Keywords" autoComplete="off" value={keywords} onChange={setKeywords} multiline={2} helpText="Words composition texts use for it, separated by commas: spandex, lycra, 氨纶." />
    </FormModal>
  );
}
