/**
 * A product picker for admin pages (styles, drops): a search field whose results come from the
 * page's own loader (`?pq=<text>` → `{ picker: [...] }`), each with an Add button.
 */
import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";

export interface PickerProduct {
  id: string;
  title: string;
  vendor: string;
  productType: string;
  status: string;
  featuredImage: { url: string; altText: string | null } | null;
}

export function ProductThumb({ url, alt, size = 40 }: { url: string | null | undefined; alt: string; size?: number }) {
  return url ? (
    <img src={url} alt={alt} width={size} height={size} style={{ objectFit: "cover", borderRadius: 6, background: "#f1f1f1", flex: "none" }} />
  ) : (
    <div aria-hidden style={{ width: size, height: size, borderRadius: 6, background: "#e3e3e3", flex: "none" }} />
  );
}

export function CatalogueProductPicker({ searchPath, selected, onAdd, busy }: { searchPath: string; selected: string[]; onAdd: (ids: string[]) => void; busy?: boolean }) {
  const fetcher = useFetcher<{ picker: PickerProduct[] | null; pickerQuery: string | null }>();
  const [q, setQ] = useState("");
  const text = q.trim();
  // The loader echoes the query it answered: a search that was interrupted (e.g. by the
  // revalidation after an action) is sent again once the fetcher is idle.
  const answered = fetcher.data?.pickerQuery ?? null;
  const stale = !!text && fetcher.state === "idle" && answered !== text;
  useEffect(() => {
    if (!stale) return;
    const t = setTimeout(() => fetcher.load(`${searchPath}?pq=${encodeURIComponent(text)}`), 300);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale, text, searchPath]);
  const results = text && answered === text ? (fetcher.data?.picker ?? []) : [];
  const searching = fetcher.state === "loading";
  return (
    <BlockStack gap="200">
      <TextField
        label="Add products"
        placeholder="Search by title, vendor, type or product id"
        autoComplete="off"
        value={q}
        onChange={setQ}
        clearButton
        onClearButtonClick={() => setQ("")}
        helpText={text && !searching && fetcher.data && results.length === 0 ? "No product matches this search." : undefined}
      />
      {results.length > 0 ? (
        <Box borderColor="border" borderWidth="025" borderRadius="200" padding="200">
          <BlockStack gap="200">
            {results.map((p) => {
              const added = selected.includes(p.id);
              return (
                <InlineStack key={p.id} align="space-between" blockAlign="center" wrap={false} gap="200">
                  <InlineStack gap="200" blockAlign="center" wrap={false}>
                    <ProductThumb url={p.featuredImage?.url} alt={p.featuredImage?.altText ?? p.title} />
                    <BlockStack>
                      <Text as="span" fontWeight="medium">
                        {p.title}
                      </Text>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {[p.vendor, p.productType, p.status].filter(Boolean).join(" · ")}
                      </Text>
                    </BlockStack>
                  </InlineStack>
                  <Button size="slim" disabled={added || busy} onClick={() => onAdd([p.id])} accessibilityLabel={`Add ${p.title}`}>
                    {added ? "Added" : "Add"}
                  </Button>
                </InlineStack>
              );
            })}
          </BlockStack>
        </Box>
      ) : null}
    </BlockStack>
  );
}
