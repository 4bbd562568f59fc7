/**
 * The shopper's own product requests on the account page (GET /product-requests/mine): what they
 * asked for, its status, and the product once it is sourced; a link to ask for another one.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { ProductRequestStatus } from "~/contract/product-requests";
import { errorMessage, useApi } from "../lib/api";
import { MY_PRODUCT_REQUESTS_KEY, REQUEST_PRODUCT_PATH } from "../lib/product-requests";
import { productPath } from "../lib/product-path";

const STATUS_TEXT: Record<ProductRequestStatus, string> = { pending: "Received", in_review: "We are looking", sourced: "Found", declined: "Not available" };

export function MyProductRequests() {
  const api = useApi();
  const list = useQuery({ queryKey: MY_PRODUCT_REQUESTS_KEY, queryFn: () => api.productRequestsMine() });
  const requests = list.data?.requests ?? [];
  return (
    <section className="panel" aria-labelledby="product-requests-title" data-testid="my-product-requests">
      <h2 id="product-requests-title" className="panel__title">
        Product requests
      </h2>
      {list.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(list.error, "Your requests could not be loaded.")}
        </p>
      ) : list.isPending ? null : requests.length === 0 ? (
        <p>You have not asked us to find a product yet.</p>
      ) : (
        <ul className="product-requests">
          {requests.map((r) => (
            <li key={r.id} data-testid="my-product-request" data-status={r.status}>
              <strong>{r.brand}</strong> {r.garment} · <span>{STATUS_TEXT[r.status]}</span>
              {r.product ? (
                <>
                  {" "}
                  · <Link to={productPath(r.product)}>{r.product.title}</Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={REQUEST_PRODUCT_PATH}>Request a product</Link>
      </p>
    </section>
  );
}
