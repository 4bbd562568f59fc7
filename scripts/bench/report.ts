/**
 * Figures and the summary table of `npm run bench`: percentiles, timing of in-process API calls,
 * and rows of "figure, target, ratio" (never pass/fail).
 */
import type { AppContext } from "../../app/context.server";
import { handleApiRequest } from "../../app/api/index.server";

export function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Dist {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

export function dist(values: number[]): Dist {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), max: s[s.length - 1] ?? NaN, mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) };
}

export const fmt = (ms: number, digits = 1) => (Number.isFinite(ms) ? ms.toFixed(digits) : "—");

export interface ApiCall {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  token?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A ready body (multipart uploads). */
  rawBody?: BodyInit;
}

export interface ApiResult {
  status: number;
  ms: number;
  json: unknown;
}

/** One request through the handler the server mounts at /api (in-process: no network). */
export async function callApi(ctx: AppContext, call: ApiCall): Promise<ApiResult> {
  const headers = new Headers(call.headers);
  if (call.token) headers.set("authorization", `Bearer ${call.token}`);
  let body: BodyInit | undefined = call.rawBody;
  if (call.body !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(call.body);
  }
  const s = performance.now();
  const res = await handleApiRequest(new Request(`http://localhost/api${call.path}`, { method: call.method, headers, body }), ctx, { clientIp: "bench" });
  const text = await res.text();
  const ms = performance.now() - s;
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, ms, json };
}

/** True when the router answers "No API endpoint at …" (the endpoint is not built yet). */
export function isMissingEndpoint(r: ApiResult): boolean {
  return r.status === 404 && /No API endpoint at/.test(JSON.stringify(r.json));
}

export function errorText(r: ApiResult): string {
  const e = (r.json as { error?: { message?: string } } | null)?.error;
  return `${r.status}${e?.message ? ` ${e.message}` : ""}`;
}

export interface SummaryRow {
  section: string;
  figure: string;
  value: string;
  target?: string;
  /** value / target, when both are numbers of the same unit. */
  ratio?: number;
}

export const summary: SummaryRow[] = [];

export function addSummary(row: SummaryRow): void {
  summary.push(row);
}

export function printTable(headers: string[], rows: string[][], align: ("l" | "r")[] = []): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => ((align[i] ?? (i === 0 ? "l" : "r")) === "l" ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

export function printSummary(conditions: string[]): void {
  console.log("\n=== Summary ===");
  for (const c of conditions) console.log(c);
  printTable(
    ["section", "figure", "value", "target", "ratio"],
    summary.map((r) => [r.section, r.figure, r.value, r.target ?? "", r.ratio === undefined || !Number.isFinite(r.ratio) ? "" : `${r.ratio.toFixed(2)}×`]),
    ["l", "l", "r", "r", "r"],
  );
}
