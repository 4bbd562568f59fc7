/**
 * Path templates of the contract (`/products/{id}`), without zod: the theme blocks' client
 * (app/client/core.ts) fills paths with this and must stay small.
 */

/** Fills `{name}` parameters of a path. */
export function buildPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === "") throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(v));
  });
}
