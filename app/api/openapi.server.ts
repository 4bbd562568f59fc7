/**
 * OpenAPI 3.1 generated from the contract. Zod 4 emits JSON Schema 2020-12, which is the schema
 * dialect of OpenAPI 3.1, so no converter library is needed.
 */
import { z } from "zod";
import { endpoints } from "~/contract";
import type { Access, EndpointDef } from "~/contract/endpoint";
import { ErrorBody } from "~/contract/endpoint";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENT_REPLAYED_HEADER } from "./idempotency.server";

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const s = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete s.$schema;
  return s;
};

function objectProperties(schema: z.ZodType): { props: Record<string, JsonSchema>; required: string[] } {
  const js = toSchema(schema, "input");
  return { props: (js.properties as Record<string, JsonSchema>) ?? {}, required: (js.required as string[]) ?? [] };
}

function security(a: Access): Record<string, string[]>[] | undefined {
  if (a.kind === "public") return [];
  if (a.kind === "apiKey") return [{ apiKey: [] }];
  return [{ bearer: [] }, { cookie: [] }];
}

function accessNote(a: Access): string {
  switch (a.kind) {
    case "public":
      return "Public.";
    case "user":
      return "Any signed-in user, guests included.";
    case "registered":
      if (a.fullUsersOnly) return "A signed-in full user: guests and leads (a guest who only gave an email) get 403.";
      return a.message ? `A signed-in user who is not a guest (others get 401 "${a.message}").` : "A signed-in user who is not a guest.";
    case "apiKey":
      return "Data service: `x-api-key` header.";
    case "role":
      return `Role ${a.roles.join(" or ")}${a.permission ? ` with permission ${[a.permission].flat().map((p) => `\`${p}\``).join(" or ")}` : ""}.`;
  }
}

/** The optional header of every write (app/api/idempotency.server.ts). */
const idempotencyKeyParameter = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: "header",
  required: false,
  description:
    `Makes a retry safe: 1–255 visible ASCII characters, unique per request (a UUID). The first answer below 500 is kept for ${IDEMPOTENCY_KEY_TTL_MS / 3_600_000} hours per caller ` +
    `and a retry with the same key and request gets it again with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, without running again. ` +
    "The same key with another method, path, query or body: 422; while its first request still runs: 409 with Retry-After; a malformed key, or a key from a caller who is not signed in: 400; a 5xx keeps nothing.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
};

export function buildOpenApiDocument(serverUrl = "/api") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, def] of Object.entries(endpoints) as [string, EndpointDef][]) {
    const parameters: unknown[] = [];
    if (def.params) {
      const { props } = objectProperties(def.params);
      for (const [n, s] of Object.entries(props)) parameters.push({ name: n, in: "path", required: true, schema: s });
    }
    if (def.query) {
      const { props, required } = objectProperties(def.query);
      for (const [n, s] of Object.entries(props)) parameters.push({ name: n, in: "query", required: required.includes(n), schema: s });
    }
    if (def.method !== "GET") parameters.push(idempotencyKeyParameter);
    const status = String(def.status ?? 200);
    const op: Record<string, unknown> = {
      operationId: name,
      summary: def.summary,
      description: accessNote(def.access),
      tags: def.tags,
      parameters,
      security: security(def.access),
      responses: {
        [status]: {
          description: "Success",
          content:
            def.responseType === "html"
              ? { "text/html": { schema: { type: "string" } } }
              : {
                  "application/json": { schema: toSchema(def.response, "output") },
                  ...Object.fromEntries((def.alternateContent ?? []).map((type) => [type, { schema: { type: "string" } }])),
                },
        },
        ...(def.rateLimit
          ? { "429": { description: `Too many requests${def.rateLimit === "language" ? " (language-model work: one budget per user, 20 a minute by default)" : def.rateLimit === "image" ? " (image work: one budget per user)" : ""}: wait for the Retry-After header's seconds`, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } }
          : {}),
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    if (def.multipart) {
      const properties = Object.fromEntries(
        Object.entries(def.multipart).map(([k, f]) => [k, { type: "string", ...(f.kind === "file" ? { format: "binary" } : {}), ...(f.description ? { description: f.description } : {}) }]),
      );
      const required = Object.entries(def.multipart).filter(([, f]) => f.required).map(([k]) => k);
      op.requestBody = { required: true, content: { "multipart/form-data": { schema: { type: "object", properties, required } } } };
    } else if (def.body) op.requestBody = { required: true, content: { "application/json": { schema: toSchema(def.body, "input") } } };
    (paths[def.path] ??= {})[def.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Fashion Discovery API",
      version: "1.0.0",
      description: "REST API of the fashion discovery and shopping product. Errors: `{\"error\": {\"code\", \"message\"}}`.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: toSchema(ErrorBody, "output") },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        cookie: { type: "apiKey", in: "cookie", name: "fd_session" },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
    },
  };
}

/** A self-contained documentation page (no CDN: it must work offline). */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Fashion Discovery API</title>
<style>
body{font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;margin:0;color:#202223;background:#f6f6f7}
header{background:#1a1a1a;color:#fff;padding:16px 24px}h1{margin:0;font-size:20px}main{max-width:1100px;margin:0 auto;padding:16px 24px}
input{width:100%;padding:8px 10px;border:1px solid #c9cccf;border-radius:8px;font-size:14px;margin:8px 0 16px}
h2{font-size:16px;margin:24px 0 8px}details{background:#fff;border:1px solid #e1e3e5;border-radius:8px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;display:flex;gap:12px;align-items:center}
.m{font:600 12px monospace;padding:2px 6px;border-radius:4px;min-width:52px;text-align:center;color:#fff}
.GET{background:#2c6ecb}.POST{background:#008060}.PUT{background:#b98900}.PATCH{background:#8a6116}.DELETE{background:#d72c0d}
code{font-family:ui-monospace,monospace}.p{font-family:ui-monospace,monospace}.s{color:#6d7175;margin-left:auto}
pre{background:#f4f6f8;margin:0 12px 12px;padding:10px;border-radius:6px;overflow:auto;font-size:12px}.a{padding:0 12px;color:#6d7175}
</style></head><body><header><h1>Fashion Discovery API</h1><div>OpenAPI 3.1: <a style="color:#9fd" href="/api/openapi.json">/api/openapi.json</a></div></header>
<main><input id="q" placeholder="Filter endpoints (path, tag, summary)" aria-label="Filter endpoints"><div id="out">Loading…</div></main>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag={};
  for(const [p,ops] of Object.entries(doc.paths)) for(const [m,op] of Object.entries(ops)) (byTag[op.tags[0]]??=[]).push({p,m:m.toUpperCase(),op});
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const render=f=>{let h='';for(const [t,list] of Object.entries(byTag)){const items=list.filter(x=>!f||(x.p+' '+t+' '+x.op.summary).toLowerCase().includes(f));if(!items.length)continue;h+='<h2>'+esc(t)+'</h2>';
    for(const x of items){const rb=x.op.requestBody&&Object.entries(x.op.requestBody.content)[0];const body=rb?'<div class=a>Request body ('+esc(rb[0])+')</div><pre>'+esc(JSON.stringify(rb[1].schema,null,2))+'</pre>':'';
      const params=x.op.parameters.length?'<div class=a>Parameters</div><pre>'+esc(x.op.parameters.map(p=>p.in+' '+p.name+(p.required?' (required)':'')+': '+JSON.stringify(p.schema)).join('\\n'))+'</pre>':'';
      const ok=Object.entries(x.op.responses)[0];const resp=ok[1].content?'<div class=a>Response '+ok[0]+'</div><pre>'+esc(JSON.stringify(Object.values(ok[1].content)[0].schema,null,2))+'</pre>':'';
      h+='<details><summary><span class="m '+x.m+'">'+x.m+'</span><span class=p>/api'+esc(x.p)+'</span><span class=s>'+esc(x.op.summary)+'</span></summary><div class=a>'+esc(x.op.description)+'</div>'+params+body+resp+'</details>';}}
    document.getElementById('out').innerHTML=h||'No endpoint matches.';};
  render('');document.getElementById('q').addEventListener('input',e=>render(e.target.value.toLowerCase()));
}).catch(e=>{document.getElementById('out').textContent='Could not load the OpenAPI document: '+e.message});
</script></body></html>`;
}
