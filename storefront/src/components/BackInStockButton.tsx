/**
 * "Notify me when back in stock" for a sold-out product or the selected sold-out size/colour.
 * Signed-in shoppers (not guests, SPEC §6) get an email when it is back; guests are asked to sign
 * in. A request that already covers the variant is shown as such, with a link to the settings.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { NOTIFICATIONS_PATH, backInStockKey, coversVariant } from "../lib/orders";
import { LoginPrompt } from "./LoginPrompt";
import "../orders.css";

export function BackInStockButton({ productId, variantId }: { productId: string; variantId: string | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn } = useSession();
  const [prompt, setPrompt] = useState(false);
  // The variant (null: the whole product) a request was just made for.
  const [doneFor, setDoneFor] = useState<string | null | undefined>(undefined);

  const mine = useQuery({
    queryKey: backInStockKey(productId),
    queryFn: () => api.notificationRequestsMine({ query: { kind: "back_in_stock", product_id: productId, limit: 100 } }),
    enabled: !!user && signedIn,
    staleTime: 60_000,
  });
  const create = useMutation({
    mutationFn: (variant: string | null) => api.notificationRequestsProductCreate({ body: { product_id: productId, ...(variant ? { variant_id: variant } : {}) } }),
    onSuccess: (_r, variant) => {
      setDoneFor(variant);
      void queryClient.invalidateQueries({ queryKey: ["user", "notification-requests"] });
    },
  });

  const covered = (mine.data?.items ?? []).some((r) => coversVariant(r, variantId));
  if (signedIn && (covered || doneFor === variantId)) {
    return (
      <p className="bis bis--done" role="status" data-testid="back-in-stock-done">
        We will email {user?.email ?? "you"} when it is back in stock. <Link to={NOTIFICATIONS_PATH}>Manage notifications</Link>
      </p>
    );
  }

  return (
    <div className="bis" data-testid="back-in-stock">
      <button
        type="button"
        className="button button--ghost button--block"
        disabled={create.isPending || (signedIn && mine.isPending)}
        onClick={() => {
          if (!signedIn) setPrompt(true);
          else create.mutate(variantId);
        }}
        data-testid="back-in-stock-button"
      >
        {create.isPending ? "Saving…" : "Notify me when back in stock"}
      </button>
      {create.isError && create.variables === variantId && (
        <p className="form-error" role="alert" data-testid="back-in-stock-error">
          {errorMessage(create.error, "Could not save this request. Please try again.")}
        </p>
      )}
      {prompt && <LoginPrompt action="be told when it is back in stock" onClose={() => setPrompt(false)} />}
    </div>
  );
}
