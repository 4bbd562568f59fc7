/**
 * The heart that saves a product: on product cards ("icon"), on the product page and in the
 * product modal ("full"). Optimistic: it fills at once and rolls back if the server refuses
 * (SPEC §4); without a session it asks the shopper to sign in (SPEC §5, §8).
 */
import { useSavedProduct } from "../lib/saved";
import { InlineProblem, LoginPrompt } from "./LoginPrompt";
import "../account.css";

export function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.9 3.7 4.5 7.2 4.5c2 0 3.6 1.1 4.8 2.8 1.2-1.7 2.8-2.8 4.8-2.8 3.5 0 5.6 3.4 4.4 6.7-1.7 4.7-9.2 9.3-9.2 9.3z"
        fill={filled ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function SaveButton({ product, variant = "icon" }: { product: { id: string; title: string }; variant?: "icon" | "full" }) {
  const t = useSavedProduct(product.id);
  return (
    <div className={`save save--${variant}`}>
      <button
        type="button"
        className={`save__button${t.on ? " save__button--on" : ""}`}
        aria-pressed={t.on}
        aria-label={variant === "icon" ? `Save ${product.title}` : undefined}
        title={t.on ? "Saved" : "Save"}
        data-testid="save-button"
        data-saved={t.on ? "true" : "false"}
        data-pending={t.pending ? "true" : undefined}
        data-known={t.known ? "true" : "false"}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          void t.toggle();
        }}
      >
        <HeartIcon filled={t.on} />
        {variant === "full" && <span className="save__label">{t.on ? "Saved" : "Save"}</span>}
      </button>
      {t.problem?.kind === "login" && <LoginPrompt onClose={t.dismiss} />}
      {t.problem?.kind === "error" && <InlineProblem message={t.problem.message} onClose={t.dismiss} testId="save-error" />}
    </div>
  );
}
