/**
 * The building blocks of the account pages reached from the sign-in flow (sign in, sign up, forgot
 * and reset password, the emailed links): a narrow page titled by its one heading, the card that
 * holds a form or its outcome, a state message for a link that cannot be used, the email and
 * new-password fields, the form's error alert and its submit button that says what it is doing. One place for them keeps the pages'
 * markup, landmarks and test ids alike.
 */
import { useId, type FormEvent, type ReactNode } from "react";
import { errorMessage } from "../lib/api";
import { PASSWORD_MAX_LENGTH } from "../lib/password-rules";
import { TextField } from "./Field";
import { PasswordRules } from "./PasswordRules";

interface TitledProps {
  /** The h1's id: the page's section is labelled by it. */
  headingId: string;
  title: ReactNode;
  testId?: string;
  children: ReactNode;
}

/** A narrow page section labelled by its heading. */
function NarrowPage({ headingId, children }: { headingId: string; children: ReactNode }) {
  return (
    <section className="page page--narrow" aria-labelledby={headingId}>
      {children}
    </section>
  );
}

/** A page whose content is one card: a form when it has onSubmit, else the form's outcome. */
export function AuthCard({ headingId, title, testId, children, onSubmit }: TitledProps & { onSubmit?: (e: FormEvent) => void }) {
  const heading = (
    <h1 id={headingId} className="auth-card__title">
      {title}
    </h1>
  );
  return (
    <NarrowPage headingId={headingId}>
      {onSubmit ? (
        <form className="auth-card" onSubmit={onSubmit} data-testid={testId}>
          {heading}
          {children}
        </form>
      ) : (
        <div className="auth-card" data-testid={testId}>
          {heading}
          {children}
        </div>
      )}
    </NarrowPage>
  );
}

/**
 * A page that is one state message: what an emailed link did, why it cannot be used and what to
 * do, or (error) a failure to check it, announced as an alert. The children are its action.
 */
export function AuthState({ headingId, title, text, testId, children, error = false }: TitledProps & { text: ReactNode; error?: boolean }) {
  return (
    <NarrowPage headingId={headingId}>
      <div className={error ? "state state--error" : "state"} role={error ? "alert" : undefined} data-testid={testId}>
        <h1 id={headingId} className="state__title">
          {title}
        </h1>
        <p className="state__text">{text}</p>
        {children}
      </div>
    </NarrowPage>
  );
}

/** An emailed link that could not be checked (the server failed): the reason and Try again. */
export function AuthRetryState({ headingId, title, testId, error, onRetry }: Omit<TitledProps, "children"> & { error: unknown; onRetry: () => void }) {
  return (
    <AuthState headingId={headingId} title={title} text={errorMessage(error)} testId={testId} error>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </AuthState>
  );
}

/** The server's failure (or a rule the input breaks), answered as an alert when it appears. */
export function FormError({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <p className="form-error" role="alert" data-testid={testId}>
      {children}
    </p>
  );
}

/** The form's full-width submit button, disabled with a label saying what it does while pending. */
export function SubmitButton({ pending, pendingLabel, testId, children }: { pending: boolean; pendingLabel: string; testId?: string; children: ReactNode }) {
  return (
    <button type="submit" className="button button--block" disabled={pending} data-testid={testId}>
      {pending ? pendingLabel : children}
    </button>
  );
}

/** The account's email address. */
export function EmailField({ value, onChange, testId }: { value: string; onChange: (value: string) => void; testId?: string }) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      required
      maxLength={254}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}

/** A new password under the registration's rules, listed below it as they are met (checked against the account's email). */
export function NewPasswordField({
  label,
  show,
  value,
  onChange,
  email,
  testId,
}: {
  label: string;
  show: boolean;
  value: string;
  onChange: (value: string) => void;
  email: string;
  testId: string;
}) {
  const rulesId = useId();
  return (
    <>
      <TextField
        label={label}
        type={show ? "text" : "password"}
        name="new-password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={PASSWORD_MAX_LENGTH}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={rulesId}
        data-testid={testId}
      />
      <PasswordRules id={rulesId} password={value} email={email} />
    </>
  );
}

/** Shows the typed password(s) in clear text. */
export function ShowPasswordToggle({ show, onChange, label }: { show: boolean; onChange: (show: boolean) => void; label: string }) {
  return (
    <label className="auth-card__show">
      <input type="checkbox" checked={show} onChange={(e) => onChange(e.target.checked)} />
      {` ${label}`}
    </label>
  );
}
