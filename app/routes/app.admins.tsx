/**
 * Admin users and permissions: list (filter by role), invite an admin or vendor user (the
 * invitation waits for its invitee to accept: pending invitations are listed with their expiry, to
 * send again or withdraw), edit an admin's permissions. Same services and zod schemas as the
 * /api/users/admin/* endpoints.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Modal, Page, Select, Tabs, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useEffect, useRef, useState } from "react";
import { Permissions, PermissionNames, type Permission } from "~/contract/permissions";
import { usersEndpoints } from "~/contract/users";
import { getAppContext } from "~/context.server";
import { refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listAdmins, updatePermissions } from "~/services/users.server";
import { inviteStaff, listInvitations, resendInvitation, revokeInvitation } from "~/services/staff-invitations.server";
import { identityDeps } from "~/services/identity-deps.server";
import { vendorOptions } from "~/services/dashboard.server";
import { ActionBanner, ActionBannerSection } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

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
  const [users, vendors, invitations] = await Promise.all([
    listAdmins({ db: ctx.db, mode: ctx.config.APP_MODE }, tab.roles),
    vendorOptions(ctx.db),
    listInvitations({ db: ctx.db }, { status: "open", roles: tab.roles ?? ["ADMIN", "VENDOR"] }),
  ]);
  return {
    tab: tab.id,
    vendors,
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      name: `${i.first_name} ${i.last_name}`.trim(),
      role: i.role,
      status: i.status,
      expiresAt: i.expires_at.toISOString(),
      invitedBy: i.invited_by,
      emailed: i.sent_at !== null,
      vendorName: vendors.find((v) => v.id === i.vendor_id)?.name ?? null,
    })),
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

type ActionResult = { ok: true; message: string; acceptUrl?: string } | { ok: false; error: string };

const day = (d: Date) => d.toISOString().slice(0, 10);

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "admins.manage");
  const ctx = getAppContext();
  const deps = identityDeps(ctx);
  const form = await formOf(request);
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
      const r = await inviteStaff(deps, user, parsed.data);
      if (r.invitationSent) return { ok: true, message: `Invitation sent to ${r.invitation.email}, valid until ${day(r.invitation.expires_at)}. They get access once they accept it.` };
      return { ok: true, message: `Invitation created for ${r.invitation.email}, valid until ${day(r.invitation.expires_at)}: pass on this link; they get access once they accept it.`, acceptUrl: r.acceptUrl ?? undefined };
    }
    if (form.get("intent") === "resend") {
      const r = await resendInvitation(deps, String(form.get("invitationId")), { send_email: form.get("send_email") !== "false" });
      if (r.invitationSent) return { ok: true, message: `Invitation sent again to ${r.invitation.email}, valid until ${day(r.invitation.expires_at)}.` };
      return { ok: true, message: `New link for ${r.invitation.email}, valid until ${day(r.invitation.expires_at)}: pass it on.`, acceptUrl: r.acceptUrl ?? undefined };
    }
    if (form.get("intent") === "revoke") {
      const r = await revokeInvitation(deps, String(form.get("invitationId")));
      return { ok: true, message: `Invitation to ${r.email} withdrawn.` };
    }
    if (form.get("intent") === "permissions") {
      const parsed = usersEndpoints.updatePermissions.body.safeParse({ permissions: form.getAll("permissions") });
      if (!parsed.success) return { ok: false, error: "Unknown permission" };
      await updatePermissions(deps, user, String(form.get("userId")), parsed.data.permissions);
      return { ok: true, message: "Permissions saved." };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    return { ok: false, error: refusalOf(e).message };
  }
};

type Row = ReturnType<typeof useLoaderData<typeof loader>>["users"][number];
type InvitationRow = ReturnType<typeof useLoaderData<typeof loader>>["invitations"][number];

export default function AdminUsers() {
  const { users, vendors, tab, invitations } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);
  // A saved form closes its modal; the server's message then shows on the page.
  const [saved, setSaved] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const tabIndex = ROLE_TABS.findIndex((t) => t.id === tab);

  return (
    <Page title="Admin users" primaryAction={{ content: "Add staff user", onAction: () => setCreating(true) }}>
      <Layout>
        <ActionBannerSection result={saved ? { ok: true, message: saved } : null} onDismiss={() => { setSaved(null); setLink(null); }} testId="admins-saved" />
        {link ? (
          <Layout.Section>
            <Card>
              <TextField label="Accept link (single use): give it to the invitee only" value={link} readOnly autoComplete="off" selectTextOnFocus onChange={() => undefined} />
            </Card>
          </Layout.Section>
        ) : null}
        {invitations.length ? (
          <Layout.Section>
            <PendingInvitations
              invitations={invitations}
              onDone={(message, acceptUrl) => {
                setSaved(message);
                setLink(acceptUrl ?? null);
              }}
            />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Tabs tabs={ROLE_TABS.map(({ id, content }) => ({ id, content }))} selected={tabIndex} onSelect={(i) => setSearchParams(i === 0 ? {} : { role: ROLE_TABS[i].id })} />
            <ResponsiveIndexTable
              resourceName={{ singular: "staff user", plural: "staff users" }}
              itemCount={users.length}
              selectable={false}
              headings={[{ title: "Name" }, { title: "Email" }, { title: "Role" }, { title: "Access" }, { title: "" }]}
            >
              {users.map((u, i) => (
                <ResponsiveRow id={u.id} key={u.id} position={i}>
                  <ResponsiveCell>{u.name || "—"}</ResponsiveCell>
                  <ResponsiveCell>{u.email}</ResponsiveCell>
                  <ResponsiveCell>
                    <Badge tone={u.role === "ADMIN" ? "info" : "attention"}>{u.role === "ADMIN" ? "Admin" : "Vendor"}</Badge>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    {u.role === "ADMIN" ? `${u.permissions.length} of ${PermissionNames.length} permissions` : (u.vendorName ?? "No vendor")}
                  </ResponsiveCell>
                  <ResponsiveCell>
                    {u.role === "ADMIN" ? (
                      <Button variant="plain" onClick={() => setEditing(u)}>
                        Edit permissions
                      </Button>
                    ) : null}
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
          </Card>
        </Layout.Section>
      </Layout>
      {creating ? (
        <CreateStaffModal
          vendors={vendors}
          onClose={() => setCreating(false)}
          onSaved={(message, acceptUrl) => {
            setCreating(false);
            setSaved(message);
            setLink(acceptUrl ?? null);
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

function PendingInvitations({ invitations, onDone }: { invitations: InvitationRow[]; onDone: (message: string, acceptUrl?: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  // Stays on the page (unlike the modals): tell the page once per answer, not on every render.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (fetcher.data?.ok) done.current(fetcher.data.message, fetcher.data.acceptUrl);
  }, [fetcher.data]);
  const act = (intent: "resend" | "revoke", invitationId: string, sendEmail = true) =>
    fetcher.submit({ intent, invitationId, send_email: String(sendEmail) }, { method: "post" });
  return (
    <Card padding="0">
      <BlockStack gap="200">
        <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
          <Text as="h2" variant="headingMd">
            Pending invitations
          </Text>
          <Text as="p" tone="subdued">
            Nobody gets access until the invitee accepts the link.
          </Text>
        </div>
        <ActionBanner result={fetcher.data} errorsOnly />
        <ResponsiveIndexTable
          resourceName={{ singular: "invitation", plural: "invitations" }}
          itemCount={invitations.length}
          selectable={false}
          headings={[{ title: "Email" }, { title: "Name" }, { title: "Role" }, { title: "Status" }, { title: "Expires" }, { title: "Invited by" }, { title: "" }]}
        >
          {invitations.map((i, n) => (
            <ResponsiveRow id={i.id} key={i.id} position={n}>
              <ResponsiveCell>{i.email}</ResponsiveCell>
              <ResponsiveCell>{i.name || "—"}</ResponsiveCell>
              <ResponsiveCell>{i.role === "ADMIN" ? "Admin" : `Vendor${i.vendorName ? ` (${i.vendorName})` : ""}`}</ResponsiveCell>
              <ResponsiveCell>
                <Badge tone={i.status === "pending" ? "attention" : "critical"}>{i.status === "pending" ? "Pending" : "Expired"}</Badge>
              </ResponsiveCell>
              <ResponsiveCell>{i.expiresAt.slice(0, 10)}</ResponsiveCell>
              <ResponsiveCell>{i.invitedBy ?? "—"}</ResponsiveCell>
              <ResponsiveCell>
                <InlineStack gap="200">
                  <Button variant="plain" onClick={() => act("resend", i.id)}>
                    Send again
                  </Button>
                  <Button variant="plain" onClick={() => act("resend", i.id, false)}>
                    New link
                  </Button>
                  <Button variant="plain" tone="critical" onClick={() => act("revoke", i.id)}>
                    Withdraw
                  </Button>
                </InlineStack>
              </ResponsiveCell>
            </ResponsiveRow>
          ))}
        </ResponsiveIndexTable>
      </BlockStack>
    </Card>
  );
}

function CreateStaffModal({ vendors, onClose, onSaved }: { vendors: { id: string; name: string }[]; onClose: () => void; onSaved: (message: string, acceptUrl?: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ email: "", first_name: "", last_name: "", role: "ADMIN", vendor_id: vendors[0]?.id ?? "", send_email: true });
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.data?.ok) onSaved(fetcher.data.message, fetcher.data.acceptUrl);
  }, [fetcher.data, onSaved]);
  const submit = () =>
    fetcher.submit({ intent: "create", ...form, send_email: String(form.send_email), vendor_id: form.role === "VENDOR" ? form.vendor_id : "" }, { method: "post" });
  return (
    <Modal open onClose={onClose} title="Invite a staff user" primaryAction={{ content: "Invite", onAction: submit, loading: busy }} secondaryActions={[{ content: "Cancel", onAction: onClose }]}>
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
            <Checkbox
              label="Send the invitation by email"
              helpText="Without email you get the link to pass on. Either way, they get access only once they accept it."
              checked={form.send_email}
              onChange={(send_email) => setForm({ ...form, send_email })}
            />
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
