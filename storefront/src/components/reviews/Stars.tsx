/** Star ratings: a read-only display (partial stars for averages) and a 1–5 radio input. */
import "./reviews.css";
import { useId } from "react";
import { starFill, starsLabel } from "../../lib/reviews";

export function Stars({ value, size = "md", label }: { value: number; size?: "sm" | "md" | "lg"; label?: string }) {
  return (
    <span className={`stars stars--${size}`} role="img" aria-label={label ?? `${Math.round(value * 10) / 10} out of 5 stars`}>
      <span className="stars__empty" aria-hidden="true">
        ★★★★★
      </span>
      <span className="stars__fill" style={{ width: `${starFill(value)}%` }} aria-hidden="true">
        ★★★★★
      </span>
    </span>
  );
}

export function StarInput({ value, onChange, disabled }: { value: number; onChange: (v: number) => void; disabled?: boolean }) {
  const name = useId();
  return (
    <fieldset className="star-input" disabled={disabled}>
      <legend className="field__label">Your rating</legend>
      <div className="star-input__options">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={`star-input__star${n <= value ? " star-input__star--on" : ""}`} title={starsLabel(n)}>
            <input className="visually-hidden" type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} aria-label={starsLabel(n)} />
            <span aria-hidden="true">★</span>
          </label>
        ))}
        <span className="star-input__text" aria-live="polite">
          {value ? starsLabel(value) : "Choose 1 to 5 stars"}
        </span>
      </div>
    </fieldset>
  );
}
