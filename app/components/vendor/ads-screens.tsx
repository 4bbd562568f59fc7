/**
 * The vendor's ad pages as route components: the same component serves the vendor's own page
 * (/app/vendor/ads…) and the admins' view of a vendor (/app/vendors/:id/ads…).
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import type { vendorAdLoader, vendorAdRequestNewLoader, vendorAdsLoader } from "~/lib/vendor-ads-pages.server";
import type { AdRequestFormResult } from "./ad-views";
import { VendorAd } from "./VendorAd";
import { VendorAdRequestForm } from "./VendorAdRequestForm";
import { VendorAds } from "./VendorAds";

type Scope = { base: string; asAdmin: boolean };
const titleOf = (scope: Scope, vendorName: string, page: string) => (scope.asAdmin ? `${vendorName} · ${page}` : page);

export function VendorAdsScreen() {
  const d = useLoaderData<typeof vendorAdsLoader>();
  return (
    <VendorAds
      base={d.scope.base}
      title={titleOf(d.scope, d.vendor.name, "Ads")}
      backAction={d.scope.asAdmin ? { content: "Vendors", url: "/app/vendors" } : undefined}
      range={d.range}
      error={d.error}
      metrics={d.metrics}
      ads={d.ads}
      requests={d.requests}
      notice={d.notice}
    />
  );
}

export function VendorAdRequestScreen() {
  const d = useLoaderData<typeof vendorAdRequestNewLoader>();
  const result = useActionData<AdRequestFormResult>() ?? null;
  return (
    <VendorAdRequestForm
      title={titleOf(d.scope, d.vendor.name, "New ad request")}
      backAction={{ content: "Ads", url: `${d.scope.base}/ads` }}
      products={d.products}
      features={d.features}
      currencyCode={d.currencyCode}
      uploadUrl={`${d.scope.base}/ads/upload`}
      result={result}
      loadError={d.loadError}
    />
  );
}

export function VendorAdScreen() {
  const d = useLoaderData<typeof vendorAdLoader>();
  return (
    <VendorAd
      title={d.ad.headline || "Ad"}
      backAction={{ content: "Ads", url: `${d.scope.base}/ads` }}
      ad={d.ad}
      metrics={d.metrics}
      metricsError={d.metricsError}
    />
  );
}
