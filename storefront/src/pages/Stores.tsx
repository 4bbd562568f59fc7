import { useEffect } from "react";
import { Link } from "react-router-dom";
import { GENDER_LABELS, useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";

export function Stores() {
  const { gender } = useGender();
  useEffect(() => {
    document.title = "Stores · Fashion Discovery";
  }, []);
  return (
    <section className="page" aria-labelledby="stores-heading">
      <div className="page__head">
        <h1 id="stores-heading" className="page__title">
          Stores{gender !== "both" ? ` · ${GENDER_LABELS[gender]}` : ""}
        </h1>
      </div>
      <div className="state">
        <h2 className="state__title">Stores are coming soon</h2>
        <p className="state__text">
          Soon you will be able to browse and follow the stores behind our products here. There are no stores to show yet.
        </p>
        <Link className="button" to={homePathFor(gender)}>
          Continue shopping
        </Link>
      </div>
    </section>
  );
}
