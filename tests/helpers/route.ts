/**
 * Helpers for tests that call a Remix route's loader or action directly (admin screens).
 */

/** The Response a loader or action threw (redirects, 403s, 404s); fails when it answered or threw something else. */
export async function thrownResponse(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected a thrown Response");
}
