/**
 * Admin users and permissions: list (filter by role), create an admin or vendor user, edit an
 * admin's permissions. Same services and zod schemas as the /api/users/admin/* endpoints.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, Checkbox, FormLayout, IndexTable, InlineStack, Layout, Modal, Page, Select, Tabs, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { Permissions, PermissionNames, type Permission } from "~/contract/permissions";
import { usersEndpoints } from "~/contract/users";
import { getAppContext } from "~/context.server";
import { ApiError } from "~/api/errors.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createAdmin, listAdmins, updatePermissions } from "~/services/users.server";
import { identityDeps } from "~/services/identity-deps.server";
import { vendorOptions } from "~/services/dashboard.server";
import { ActionBanner, ActionBannerSection } from "~/components/admin";

const ROLE_TABS = [
  { id: "all", content: "All staff", roles: undefined },
  { id: "ADMIN", content: "Admins", roles: ["ADMIN" as const] },
  { id: "VENDOR", content: "Vendors", roles: ["VENDOR" as const] },
];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "admins.manage");
  const ctx = getAppContext();
  const role = new URL(request.url).searchParams.get("role");
  const tab = ROLE_TABS.find((t) => t.id === role) ?? ROLE_TABS[0];
  const [users, vendors] = await Promise.all([
    listAdmins({ db: ctx.db, mode: ctx.config.APP_MODE }, tab.roles),
    vendorOptions(ctx.db),
  ]);
  return {
    tab: tab.id,
    vendors,
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      name: [u.first_name, u.last_name].filter(Boolean).join(" "),
      role: u.role,
      permissions: u.permissions,
      vendorName: vendors.find((v) => v.id === u.vendor_id)?.name ?? null,
    })),
  };
};

type ActionResult = { ok: true; message: string } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "admins.manage");
  const ctx = getAppContext();
  const deps = identityDeps(ctx);
  const form = await request.formData();
  try {
    if (form.get("intent") === "create") {
      const parsed = usersEndpoints.createAdmin.body.safeParse({
        email: form.get("email"),
        first_name: form.get("first_name"),
        last_name: form.get("last_name"),
        role: form.get("role"),
        vendor_id: form.get("vendor_id") || undefined,
        send_email: form.get("send_email") === "true",
      });
      if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
      const r = await createAdmin(deps, parsed.data);
      return { ok: true, message: `${r.user.email} can now sign in${r.invitationSent ? "; an invitation was sent" : ""}.` };
    }
    if (form.get("intent") === "permissions") {
      const parsed = usersEndpoints.updatePermissions.body.safeParse({ permissions: form.getAll("permissions") });
      if (!parsed.success) return { ok: false, error: "Unknown permission" };
      await updatePermissions(deps, user, String(form.get("userId")), parsed.data.permissions);
      return { ok: true, message: "Permissions saved." };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.message };
    throw e;
  }
};

type Row = ReturnType<typeof useLoaderData<typeof loader>>["users"][number];

export default function AdminUsers() {
  const { users, vendors, tab } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);
  // A saved form closes its modal; the server's message then shows on the page.
  const [saved, setSaved] = useState<string | null>(null);
  const tabIndex = ROLE_TABS.findIndex((t) => t.id === tab);

  return (
    <Page title="Admin users" primaryAction={{ content: "Add staff user", onAction: () => setCreating(true) }}>
      <Layout>
        <ActionBannerSection result={saved ? { ok: true, message: saved } : null} onDismiss={() => setSaved(null)} testId="admins-saved" />
        <Layout.Section>
          <Card padding="0">
            <Tabs tabs={ROLE_TABS.map(({ id, content }) => ({ id, content }))} selected={tabIndex} onSelect={(i) => setSearchParams(i === 0 ? {} : { role: ROLE_TABS[i].id })} />
            <IndexTable
              resourceName={{ singular: "staff user", plural: "staff users" }}
              itemCount={users.length}
              selectable={false}
              headings={[{ title: "Name" }, { title: "Email" }, { title: "Role" }, { title: "Access" }, { title: "" }]}
            >
              {users.map((u, i) => (
                <IndexTable.Row id={u.id} key={u.id} position={i}>
                  <IndexTable.Cell>{u.name || "—"}</IndexTable.Cell>
                  <IndexTable.Cell>{u.email}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={u.role === "ADMIN" ? "info" : "attention"}>{u.role === "ADMIN" ? "Admin" : "Vendor"}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {u.role === "ADMIN" ? `${u.permissions.length} of ${PermissionNames.length} permissions` : (u.vendorName ?? "No vendor")}
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {u.role === "ADMIN" ? (
                      <Button variant="plain" onClick={() => setEditing(u)}>
                        Edit permissions
                      </Button>
                    ) : null}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
      {creating ? (
        <CreateStaffModal
          vendors={vendors}
          onClose={() => setCreating(false)}
          onSaved={(message) => {
            setCreating(false);
            setSaved(message);
          }}
        />
      ) : null}
      {editing ? (
        <PermissionsModal
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setSaved(message);
          }}
        />
      ) : null}
    </Page>
  );
}

function CreateStaffModal({ vendors, onClose, onSaved }: { vendors: { id: string; name: string }[]; onClose: () => void; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ email: "", first_name: "", last_name: "", role: "ADMIN", vendor_id: vendors[0]?.id ?? "", send_email: true });
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.data?.ok) onSaved(fetcher.data.message);
  }, [fetcher.data, onSaved]);
  const submit = () =>
    fetcher.submit({ intent: "create", ...form, send_email: String(form.send_email), vendor_id: form.role === "VENDOR" ? form.vendor_id : "" }, { method: "post" });
  return (
    <Modal open onClose={onClose} title="Add staff user" primaryAction={{ content: "Add", onAction: submit, loading: busy }} secondaryActions={[{ content: "Cancel", onAction: onClose }]}>
      <Modal.Section>
        <BlockStack gap="300">
          <ActionBanner result={fetcher.data} errorsOnly />
          <FormLayout>
            <TextField label="Email" type="email" autoComplete="off" value={form.email} onChange={(email) => setForm({ ...form, email })} />
            <FormLayout.Group>
              <TextField label="First name" autoComplete="off" value={form.first_name} onChange={(first_name) => setForm({ ...form, first_name })} />
              <TextField label="Last name" autoComplete="off" value={form.last_name} onChange={(last_name) => setForm({ ...form, last_name })} />
            </FormLayout.Group>
            <Select label="Role" options={[{ label: "Admin", value: "ADMIN" }, { label: "Vendor", value: "VENDOR" }]} value={form.role} onChange={(role) => setForm({ ...form, role })} />
            {form.role === "VENDOR" ? (
              <Select label="Vendor" options={vendors.map((v) => ({ label: v.name, value: v.id }))} value={form.vendor_id} onChange={(vendor_id) => setForm({ ...form, vendor_id })} />
            ) : null}
            <Checkbox label="Send an invitation email" checked={form.send_email} onChange={(send_email) => setForm({ ...form, send_email })} />
          </FormLayout>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

function PermissionsModal({ user, onClose, onSaved }: { user: Row; onClose: () => void; onSaved: (message: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [selected, setSelected] = useState<string[]>(user.permissions);
  const toggle = (p: Permission, on: boolean) => setSelected((s) => (on ? [...s, p] : s.filter((x) => x !== p)));
  useEffect(() => {
    if (fetcher.data?.ok) onSaved(fetcher.data.message);
  }, [fetcher.data, onSaved]);
  const save = () => {
    const data = new FormData();
    data.set("intent", "permissions");
    data.set("userId", user.id);
    selected.forEach((p) => data.append("permissions", p));
    fetcher.submit(data, { method: "post" });
  };
  return (
    <Modal open onClose={onClose} title={`Permissions of ${user.email}`} primaryAction={{ content: "Save", onAction: save, loading: fetcher.state !== "idle" }} secondaryActions={[{ content: "Cancel", onAction: onClose }]}>
      <Modal.Section>
        <BlockStack gap="200">
          <ActionBanner result={fetcher.data} errorsOnly />
          <InlineStack gap="200">
            <Button variant="plain" onClick={() => setSelected([...PermissionNames])}>
              Select all
            </Button>
            <Button variant="plain" onClick={() => setSelected([])}>
              Clear
            </Button>
          </InlineStack>
          {PermissionNames.map((p) => (
            <Checkbox key={p} label={Permissions[p]} helpText={<Text as="span" tone="subdued">{p}</Text>} checked={selected.includes(p)} onChange={(on) => toggle(p, on)} />
          ))}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
