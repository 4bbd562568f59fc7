/** The storefront session's user for unit tests (no React needed). */
import type { User } from "~/contract";

/** A signed-in shopper (Ada), with `over` applied. */
export const shopper = (over: Partial<User> = {}): User => ({
  id: "u1",
  auth_provider: "password",
  email: "ada@example.test",
  first_name: "Ada",
  last_name: null,
  phone_number: null,
  role: "SHOPPER",
  permissions: [],
  vendor_id: null,
  cart_id: null,
  metadata: {},
  email_verified_at: "2025-01-01T00:00:00.000Z",
  created_at: "2025-01-01T00:00:00.000Z",
  ...over,
});
