/** Email verification in the storefront: the page the emailed link opens, and its query key. */
import type { User } from "~/contract";

/** Not a "user" key: the link may be opened in any browser, signed in or not, and its answer outlives a sign-out. */
export const verifyEmailKey = (token: string) => ["verify-email", token] as const;

/** Whether to ask the user to confirm their address: they gave one and have not confirmed it. */
export const needsEmailVerification = (user: User | null | undefined): user is User & { email: string } => !!user?.email && !user.email_verified_at;
