/**
 * The vendor portal's pages as route components: the same component serves the vendor's own page
 * (/app/vendor…, the vendor from the session) and the admins' view of a vendor (/app/vendors/:id…,
 * which adds the way back to the vendors list, the commission rate edit and "Mark paid").
 */
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Layout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { vendorHomeLoader, vendorPayoutsLoader, vendorProductsLoader, vendorStoresLoader } from "~/lib/vendor-pages.server";
import { ActionBanner, FormModal, useFetcherResult, type ActionOutcome } from "~/components/admin";
import { VendorHome } from "./VendorHome";
import { VendorPayouts } from "./VendorPayouts";
import { VendorProducts } from "./VendorProducts";
import { VendorStores } from "./VendorStores";

type Scope = { base: string; asAdmin: boolean };
const VENDORS_LIST = { content: "Vendors", url: "/app/vendors" };
const titleOf = (scope: Scope, vendorName: string, page: string | null) => (scope.asAdmin ? (page ? `${vendorName} · ${page}` : vendorName) : (page ?? vendorName));
const backOf = (scope: Scope) => (scope.asAdmin ? VENDORS_LIST : undefined);

export function VendorHomeScreen() {
  const d = useLoaderData<typeof vendorHomeLoader>();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<ActionOutcome | null>(null);
  return (
    <VendorHome
      base={d.scope.base}
      title={titleOf(d.scope, d.vendor.name, null)}
      subtitle={`Commission ${d.vendor.commission_rate}%`}
      backAction={backOf(d.scope)}
      primaryAction={d.scope.asAdmin ? { content: "Commission rate", onAction: () => setEditing(true) } : undefined}
      range={d.range}
      timeZone={d.timeZone}
      error={d.error}
      summary={d.summary}
      top={d.top}
    >
      {notice ? (
        <Layout.Section>
          <ActionBanner result={notice} onDismiss={() => setNotice(null)} testId="vendor-notice" />
        </Layout.Section>
      ) : null}
      {editing ? (
        <CommissionModal
          current={d.vendor.commission_rate}
          onClose={() => setEditing(false)}
          onDone={(message) => {
            setEditing(false);
            setNotice({ ok: true, message });
          }}
        />
      ) : null}
    </VendorHome>
  );
}

type ActionAnswer = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

function CommissionModal({ current, onClose, onDone }: { current: string; onClose: () => void; onDone: (message: string) => void }) {
  const fetcher = useFetcher<ActionAnswer>();
  const [rate, setRate] = useState(current);
  useFetcherResult(fetcher, (r) => r.ok && onDone(r.message));
  const refusal = fetcher.data && !fetcher.data.ok ? { ok: false as const, error: fetcher.data.error } : undefined;
  return (
    <FormModal
      title="Commission rate"
      submitLabel="Save rate"
      fetcher={{ state: fetcher.state, data: refusal }}
      onSubmit={() => fetcher.submit({ intent: "commission", commission_rate: rate }, { method: "post" })}
      onClose={onClose}
    >
      <TextField label="Commission rate" type="number" suffix="%" autoComplete="off" value={rate} onChange={setRate} min={0} max={100} step={0.01} />
      <Text as="p" tone="subdued">
        The share of sales the platform keeps. It applies to periods not yet closed; closed months keep the rate they were made with.
      </Text>
    </FormModal>
  );
}

export function VendorProductsScreen() {
  const d = useLoaderData<typeof vendorProductsLoader>();
  return (
    <VendorProducts
      base={d.scope.base}
      title={titleOf(d.scope, d.vendor.name, "Products")}
      backAction={backOf(d.scope)}
      days={d.days}
      q={d.q}
      status={d.status}
      sort={d.sort}
      order={d.order}
      trail={d.trail}
      cursor={d.cursor}
      error={d.error}
      performance={d.performance}
      canChangeStatus
    />
  );
}

export function VendorStoresScreen() {
  const d = useLoaderData<typeof vendorStoresLoader>();
  return (
    <VendorStores
      base={d.scope.base}
      title={titleOf(d.scope, d.vendor.name, "Stores")}
      backAction={backOf(d.scope)}
      stores={d.stores}
      storeUrl={d.scope.asAdmin ? (id) => `/app/stores/${id}` : undefined}
    />
  );
}

export function VendorPayoutsScreen() {
  const d = useLoaderData<typeof vendorPayoutsLoader>();
  return (
    <VendorPayouts
      base={d.scope.base}
      title={titleOf(d.scope, d.vendor.name, "Payouts")}
      backAction={backOf(d.scope)}
      payouts={d.payouts}
      error={d.error}
      csvUrl={`${d.scope.base}/payouts/csv`}
      range={d.range}
      canMarkPaid={d.scope.asAdmin}
    />
  );
}
