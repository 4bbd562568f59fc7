/**
 * The password rules of registration and password reset, as the forms show them. The server
 * decides (app/services/password-policy.server.ts: at least 8 characters, not common or easily
 * guessed, not the email or its name part); the forms check what they can without its dictionaries
 * (length, the email) so the shopper sees a rule met or not while typing, and show the server's
 * sentence when it refuses.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
/** Name parts shorter than this are not checked (the server's rule). */
const MIN_LOCAL_PART = 3;

export type PasswordRuleId = "length" | "email" | "common";

export interface PasswordRuleState {
  id: PasswordRuleId;
  label: string;
  /** true met, false not met, null: only the server can tell (or nothing typed yet). */
  met: boolean | null;
}

export function passwordRuleStates(password: string, email: string | null | undefined): PasswordRuleState[] {
  const typed = password.length > 0;
  const mail = (email ?? "").trim().toLowerCase();
  const local = mail.split("@")[0] ?? "";
  const lowered = password.toLowerCase();
  const containsEmail = !!mail && (lowered.includes(mail) || lowered === local || (local.length >= MIN_LOCAL_PART && lowered.includes(local)));
  return [
    { id: "length", label: `At least ${PASSWORD_MIN_LENGTH} characters`, met: typed ? password.length >= PASSWORD_MIN_LENGTH : null },
    { id: "email", label: "Not your email address or the part before the @", met: typed && mail.includes("@") ? !containsEmail : null },
    { id: "common", label: "Not a common or easily guessed password: three or four unrelated words work well", met: null },
  ];
}

/** What stops the form before asking the server, or null when the server should decide. */
export function passwordProblem(password: string, email: string | null | undefined, confirm?: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Your password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (passwordRuleStates(password, email).some((r) => r.met === false)) return "Your password must not contain your email address or the part before the @.";
  if (confirm !== undefined && confirm !== password) return "The two passwords are not the same.";
  return null;
}

/** The reset link's check: not a "user" key (the link may be opened in any browser, signed in or not). */
export const passwordResetKey = (token: string) => ["password-reset", token] as const;
