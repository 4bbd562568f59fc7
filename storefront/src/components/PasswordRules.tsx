/**
 * The password rules under a new-password field: each rule with whether the typed password meets
 * it (length and the email are checked while typing; "not common" only the server can tell).
 */
import { passwordRuleStates } from "../lib/password-rules";
import "../auth.css";

export function PasswordRules({ id, password, email }: { id: string; password: string; email: string | null | undefined }) {
  const rules = passwordRuleStates(password, email);
  return (
    <ul id={id} className="password-rules" data-testid="password-rules" aria-label="Password rules">
      {rules.map((r) => (
        <li key={r.id} className={`password-rules__rule password-rules__rule--${r.met === null ? "open" : r.met ? "met" : "unmet"}`} data-rule={r.id} data-met={r.met === null ? "unknown" : String(r.met)}>
          <span className="password-rules__mark" aria-hidden="true">
            {r.met === null ? "•" : r.met ? "✓" : "✕"}
          </span>
          <span>
            {r.label}
            {r.met === false && <span className="visually-hidden"> (not met yet)</span>}
            {r.met === true && <span className="visually-hidden"> (met)</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
