/**
 * The home page (`/`, `/mens`, `/womens`): the personalised feed, or the search results when the
 * address has `?search=` (SPEC §2: the header's search box writes it). Both open products in the
 * product modal (`?product=`).
 */
import { useLocation } from "react-router-dom";
import { useGender } from "../lib/gender";
import { readSearchTerm } from "../lib/gender-routing";
import { ProductOpenerProvider, useProductModalRoute } from "../lib/product-opener";
import { useStaticPageMeta } from "../lib/use-page-meta";
import { HomeFeed } from "../components/HomeFeed";
import { RecentlyViewed } from "../components/RecentlyViewed";
import { ProductModal } from "../components/ProductModalLazy";
import { SearchResults } from "./SearchResults";

const HEADINGS = { menswear: "Menswear", womenswear: "Womenswear", both: "New in" } as const;

export function Home() {
  const { gender } = useGender();
  const location = useLocation();
  const search = readSearchTerm(location.search);
  const modal = useProductModalRoute();

  const heading = search ? `Results for “${search}”` : HEADINGS[gender];
  useStaticPageMeta();

  return (
    <ProductOpenerProvider opener={modal.open}>
      {search ? (
        <SearchResults term={search} />
      ) : (
        <section className="page" aria-labelledby="home-heading">
          <div className="page__head">
            <h1 id="home-heading" className="page__title">
              {heading}
            </h1>
          </div>
          <RecentlyViewed />
          <HomeFeed />
        </section>
      )}
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}
