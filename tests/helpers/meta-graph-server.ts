/**
 * A local HTTP server that speaks the part of Meta's Graph API (Marketing API) the ads adapter
 * uses, with its request and response shapes, and checks what it receives as Meta does:
 * - the access token (`Authorization: Bearer …` or `access_token`): a wrong one answers 400
 *   OAuthException code 190; `expireToken()` makes the right one answer code 190 subcode 463;
 * - `POST /{v}/act_{id}/campaigns | adsets | adcreatives | ads` (form-encoded, JSON-valued params)
 *   with the fields each object needs (objective, special_ad_categories, an integer daily_budget,
 *   targeting with countries, an existing campaign / ad set / creative, object_story_spec with
 *   page_id and link_data, a valid status) → `{id}`; missing or wrong params answer code 100;
 * - `POST /{v}/{object id}` `{status}` → `{success: true}`; an unknown id answers code 100/33;
 * - `DELETE /{v}/{object id}` → `{success: true}`;
 * - `GET /{v}/act_{id}/insights` with level=ad, time_increment=1, the fields, `filtering` on
 *   ad.id and a `time_range`: the rows the test put in (`setInsights`) for those ads and days, in
 *   pages of `pageSize` (or `limit`) with `paging.cursors.after` and `paging.next`.
 * `rateLimit(n, {code, httpStatus})` answers the next n requests with a rate-limit error (code 17
 * by default, or HTTP 429). Every request is recorded (`calls`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export const META_TEST_TOKEN = "EAAtest0123456789abcdef";
export const META_TEST_ACCOUNT = "act_1234567890";
export const META_TEST_PAGE = "987654321";
export const META_TEST_VERSION = "v23.0";

export interface RecordedGraphCall {
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
}

export interface GraphObject {
  id: string;
  type: "campaign" | "adset" | "adcreative" | "ad";
  status?: string;
  params: Record<string, unknown>;
  deleted?: boolean;
}

/** One insights row as Meta returns it (numbers as strings). */
export interface GraphInsightRow {
  ad_id: string;
  date_start: string;
  date_stop?: string;
  impressions?: string;
  reach?: string;
  clicks?: string;
  spend?: string;
  account_currency?: string;
  actions?: Array<{ action_type: string; value: string }>;
  action_values?: Array<{ action_type: string; value: string }>;
}

export interface FakeMetaGraph {
  graphUrl: string;
  token: string;
  accountId: string;
  pageId: string;
  version: string;
  calls: RecordedGraphCall[];
  objects: Map<string, GraphObject>;
  setInsights(rows: GraphInsightRow[]): void;
  /** Rows per insights page (Meta's default is 25; the request's `limit` wins when smaller). */
  pageSize: number;
  rateLimit(times: number, opts?: { code?: number; httpStatus?: number }): void;
  expireToken(): void;
  /** The next request to this object type's creation fails with code 100 (a refused field). */
  refuseNext(type: GraphObject["type"], message?: string): void;
  reset(): void;
  close(): Promise<void>;
}

const STATUSES = new Set(["ACTIVE", "PAUSED", "ARCHIVED", "DELETED"]);
const OBJECTIVES = new Set(["OUTCOME_SALES", "OUTCOME_TRAFFIC", "OUTCOME_AWARENESS", "OUTCOME_ENGAGEMENT", "OUTCOME_LEADS", "OUTCOME_APP_PROMOTION"]);
const CTAS = new Set(["SHOP_NOW", "LEARN_MORE", "SIGN_UP", "BUY_NOW", "ORDER_NOW"]);
const INSIGHT_FIELDS = new Set(["ad_id", "date_start", "date_stop", "impressions", "reach", "clicks", "spend", "actions", "action_values", "account_currency", "ad_name", "ctr", "cpc"]);

export async function startFakeMetaGraph(opts: { token?: string; accountId?: string; pageId?: string; version?: string } = {}): Promise<FakeMetaGraph> {
  const token = opts.token ?? META_TEST_TOKEN;
  const accountId = opts.accountId ?? META_TEST_ACCOUNT;
  const pageId = opts.pageId ?? META_TEST_PAGE;
  const version = opts.version ?? META_TEST_VERSION;
  const calls: RecordedGraphCall[] = [];
  const objects = new Map<string, GraphObject>();
  let insights: GraphInsightRow[] = [];
  let rateLimited: Array<{ code: number; httpStatus: number }> = [];
  let expired = false;
  const refusals = new Map<GraphObject["type"], string>();
  let seq = 120_000_000_000;
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://graph.local");
      const params: Record<string, string> = {};
      for (const [k, v] of url.searchParams) params[k] = v;
      if (req.method === "POST") {
        const type = String(req.headers["content-type"] ?? "");
        const raw = Buffer.concat(chunks).toString("utf8");
        if (type.includes("application/x-www-form-urlencoded")) for (const [k, v] of new URLSearchParams(raw)) params[k] = v;
        else if (type.includes("application/json") && raw) Object.assign(params, JSON.parse(raw) as Record<string, string>);
      }
      const send = (status: number, payload: unknown) => {
        calls.push({ method: req.method ?? "GET", path: url.pathname, params, status });
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      const fbError = (status: number, code: number, message: string, type = "OAuthException", subcode?: number) =>
        send(status, { error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: `trace${calls.length}` } });
      const invalid = (message: string) => fbError(400, 100, `Invalid parameter: ${message}`);
      const json = <T>(name: string): T | undefined => {
        if (params[name] === undefined) return undefined;
        try {
          return JSON.parse(params[name]) as T;
        } catch {
          return undefined;
        }
      };

      const auth = String(req.headers.authorization ?? "");
      const given = auth.startsWith("Bearer ") ? auth.slice(7) : params.access_token;
      if (!given) return fbError(400, 104, "An access token is required to request this resource.");
      if (given !== token) return fbError(400, 190, "Invalid OAuth access token - Cannot parse access token");
      if (expired) return fbError(400, 190, "Error validating access token: Session has expired on Friday, 27-Nov-26 10:00:00 PST.", "OAuthException", 463);
      const limit = rateLimited.shift();
      if (limit) {
        if (limit.httpStatus === 429) return fbError(429, limit.code, "Too many calls", "OAuthException");
        return fbError(limit.httpStatus, limit.code, limit.code === 17 ? "User request limit reached" : "(#4) Application request limit reached", "OAuthException");
      }

      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] !== version) return fbError(400, 2635, `(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: ${version}.`);
      const [, first, edge] = parts;

      if (first === accountId && edge && req.method === "POST") {
        const create = (type: GraphObject["type"], status?: string) => {
          const refusal = refusals.get(type);
          if (refusal !== undefined) {
            refusals.delete(type);
            return invalid(refusal);
          }
          const id = String(++seq);
          const parsed: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(params)) parsed[k] = json(k) ?? v;
          objects.set(id, { id, type, status, params: parsed });
          return send(200, { id });
        };
        const known = (id: unknown, type: GraphObject["type"]) => typeof id === "string" && objects.get(id)?.type === type && !objects.get(id)?.deleted;
        const status = params.status;
        if (edge !== "adcreatives" && (!status || !STATUSES.has(status))) return invalid("status must be one of ACTIVE, PAUSED, ARCHIVED, DELETED");
        if (!params.name) return invalid("name is required");
        switch (edge) {
          case "campaigns": {
            if (!OBJECTIVES.has(params.objective ?? "")) return invalid("objective");
            if (!Array.isArray(json("special_ad_categories"))) return invalid("special_ad_categories must be a JSON array");
            return create("campaign", status);
          }
          case "adsets": {
            if (!known(params.campaign_id, "campaign")) return invalid("campaign_id");
            if (!/^\d+$/.test(params.daily_budget ?? "")) return invalid("daily_budget must be an integer in the currency's minor units");
            if (!params.billing_event || !params.optimization_goal) return invalid("billing_event and optimization_goal are required");
            const targeting = json<{ geo_locations?: { countries?: string[] } }>("targeting");
            if (!targeting?.geo_locations?.countries?.length) return invalid("targeting.geo_locations is required");
            return create("adset", status);
          }
          case "adcreatives": {
            const spec = json<{ page_id?: string; link_data?: { link?: string; picture?: string; child_attachments?: unknown[]; message?: string; name?: string; call_to_action?: { type?: string } } }>("object_story_spec");
            if (!spec || spec.page_id !== pageId) return invalid("object_story_spec.page_id");
            const link = spec.link_data;
            if (!link?.link || !/^https?:\/\//.test(link.link)) return invalid("object_story_spec.link_data.link");
            if (!link.picture && !link.child_attachments?.length) return invalid("object_story_spec.link_data needs a picture or child_attachments");
            if (!CTAS.has(link.call_to_action?.type ?? "")) return invalid("call_to_action.type");
            return create("adcreative");
          }
          case "ads": {
            if (!known(params.adset_id, "adset")) return invalid("adset_id");
            if (!known(json<{ creative_id?: string }>("creative")?.creative_id, "adcreative")) return invalid("creative.creative_id");
            return create("ad", status);
          }
          default:
            return fbError(400, 100, `Unknown path components: /${edge}`);
        }
      }

      if (first === accountId && edge === "insights" && req.method === "GET") {
        if (params.level !== "ad") return invalid("level");
        if (params.time_increment !== "1") return invalid("time_increment");
        const fields = (params.fields ?? "").split(",").filter(Boolean);
        if (fields.length === 0 || fields.some((f) => !INSIGHT_FIELDS.has(f))) return invalid(`fields ${params.fields}`);
        const filtering = json<Array<{ field?: string; operator?: string; value?: string[] }>>("filtering");
        const adFilter = filtering?.find((f) => f.field === "ad.id");
        if (!adFilter || adFilter.operator !== "IN" || !Array.isArray(adFilter.value)) return invalid("filtering on ad.id IN […]");
        const range = json<{ since?: string; until?: string }>("time_range");
        if (!range?.since || !range.until || range.since > range.until) return invalid("time_range");
        const wanted = new Set(adFilter.value);
        const matching = insights.filter((r) => wanted.has(r.ad_id) && r.date_start >= range.since! && r.date_start <= range.until!);
        const size = Math.min(fake.pageSize, Number(params.limit) || fake.pageSize);
        const start = params.after ? Number(Buffer.from(params.after, "base64url").toString()) : 0;
        const page = matching.slice(start, start + size).map((r) => ({ ...r, date_stop: r.date_stop ?? r.date_start }));
        const after = Buffer.from(String(start + size)).toString("base64url");
        const more = start + size < matching.length;
        const paging = page.length
          ? {
              cursors: { before: Buffer.from(String(start)).toString("base64url"), after },
              ...(more ? { next: `${fake.graphUrl}${url.pathname}?${new URLSearchParams({ ...params, after })}` } : {}),
            }
          : undefined;
        return send(200, { data: page, ...(paging ? { paging } : {}) });
      }

      if (first && !edge) {
        const obj = objects.get(first);
        if (!obj || obj.deleted) return fbError(400, 100, `Unsupported post request. Object with ID '${first}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, "GraphMethodException", 33);
        if (req.method === "DELETE") {
          obj.deleted = true;
          return send(200, { success: true });
        }
        if (req.method === "POST") {
          if (!params.status || !STATUSES.has(params.status)) return invalid("status");
          obj.status = params.status;
          return send(200, { success: true });
        }
        if (req.method === "GET") return send(200, { id: obj.id, status: obj.status });
      }
      return fbError(400, 100, `Unknown path components: ${url.pathname}`);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeMetaGraph = {
    graphUrl: `http://127.0.0.1:${port}`,
    token,
    accountId,
    pageId,
    version,
    calls,
    objects,
    pageSize: 25,
    setInsights(rows) {
      insights = rows;
    },
    rateLimit(times, o = {}) {
      for (let i = 0; i < times; i++) rateLimited.push({ code: o.code ?? 17, httpStatus: o.httpStatus ?? 400 });
    },
    expireToken() {
      expired = true;
    },
    refuseNext(type, message = "a field was refused") {
      refusals.set(type, message);
    },
    reset() {
      calls.length = 0;
      objects.clear();
      insights = [];
      rateLimited = [];
      expired = false;
      refusals.clear();
      fake.pageSize = 25;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
