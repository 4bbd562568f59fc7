import { Link } from "react-router-dom";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { useDocumentTitle } from "../lib/use-document-title";

export function NotFound() {
  const { gender } = useGender();
  useDocumentTitle("Page not found");
  return (
    <section className="page" aria-labelledby="nf-heading">
      <div className="state">
        <p className="state__code">404</p>
        <h1 id="nf-heading" className="state__title">
          Page not found
        </h1>
        <p className="state__text">The page you are looking for does not exist or has moved.</p>
        <Link className="button" to={homePathFor(gender)}>
          Back to the shop
        </Link>
      </div>
    </section>
  );
}
