/** Refusals on /app pages, told apart from Shopify's own auth responses by their body. */
export function staffError(status: number, message: string): Response {
  return new Response(JSON.stringify({ staffError: message }), { status, headers: { "content-type": "application/json" } });
}

export function staffErrorMessage(data: unknown): string | null {
  if (data && typeof data === "object" && "staffError" in data && typeof (data as { staffError: unknown }).staffError === "string") {
    return (data as { staffError: string }).staffError;
  }
  if (typeof data === "string") {
    try {
      return staffErrorMessage(JSON.parse(data));
    } catch {
      return null;
    }
  }
  return null;
}
