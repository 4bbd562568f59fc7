/**
 * A local HTTP server that speaks the OpenAI chat-completions protocol (the part the app uses:
 * `POST /v1/chat/completions`) and checks what it receives as the real API does: the bearer key
 * (401 `invalid_api_key`), a JSON body with `model` and `messages` (roles system/user/assistant,
 * string contents), `temperature` 0–2, a positive integer `max_tokens`, `response_format` of type
 * `text` or `json_object` — and for `json_object`, the word "json" somewhere in the messages (the
 * real API refuses the request otherwise). Errors have OpenAI's shape
 * `{error: {message, type, param, code}}`.
 *
 * What the "model" answers is up to the test: `reply(fn)` sets a function of the request (return
 * the content string), `enqueue(...)` queues one-off answers (content, an HTTP error, a delay, a raw
 * body), and `failNext(status)` injects errors (with Retry-After when given) to exercise retries.
 * Every request is recorded.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";

export const OPENAI_TEST_KEY = "sk-test-0123456789abcdef";
export const OPENAI_TEST_MODEL = "gpt-test-mini";

export interface ChatRequestBody {
  model: string;
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: "text" | "json_object" };
}

export interface RecordedChatRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ChatRequestBody | null;
  status: number;
}

export type ScriptedAnswer =
  | { content: string; delayMs?: number }
  | { status: number; message?: string; retryAfterSeconds?: number }
  | { delayMs: number; content?: string }
  | { raw: string; status?: number };

export interface FakeOpenAi {
  /** Base URL to configure (`OPENAI_BASE_URL`), ending in /v1. */
  baseUrl: string;
  apiKey: string;
  requests: RecordedChatRequest[];
  /** The model's behaviour for requests without a queued answer. */
  reply(fn: (body: ChatRequestBody) => string): void;
  enqueue(...answers: ScriptedAnswer[]): void;
  failNext(status: number, count?: number, retryAfterSeconds?: number): void;
  /** The last user message of a request. */
  lastUserMessage(body: ChatRequestBody | null): string;
  /** Back to a fresh server between tests: no recorded requests, nothing queued, answers "OK". */
  reset(): void;
  close(): Promise<void>;
}

const ROLES = new Set(["system", "user", "assistant"]);

export async function startFakeOpenAi(opts: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const apiKey = opts.apiKey ?? OPENAI_TEST_KEY;
  const requests: RecordedChatRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  let behaviour: (body: ChatRequestBody) => string = () => "OK";
  let seq = 0;
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: ChatRequestBody | null = null;
      const record = (status: number) => requests.push({ path: req.url ?? "", headers: req.headers, body, status });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        record(status);
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
      };
      const error = (status: number, message: string, type = "invalid_request_error", code: string | null = null, param: string | null = null, headers: Record<string, string> = {}) =>
        send(status, { error: { message, type, param, code } }, headers);

      if (req.url !== "/v1/chat/completions") return error(404, `Unknown request URL: ${req.method} ${req.url}`, "invalid_request_error", "unknown_url");
      if (req.method !== "POST") return error(405, `Method ${req.method} not allowed`);
      const auth = String(req.headers.authorization ?? "");
      if (auth !== `Bearer ${apiKey}`) return error(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key");
      if (!String(req.headers["content-type"] ?? "").includes("application/json")) return error(400, "Content-Type must be application/json");
      try {
        body = JSON.parse(raw) as ChatRequestBody;
      } catch {
        return error(400, "We could not parse the JSON body of your request.");
      }
      if (!body || typeof body !== "object") return error(400, "The body must be a JSON object");
      if (typeof body.model !== "string" || !body.model) return error(400, "you must provide a model parameter", "invalid_request_error", null, "model");
      if (!Array.isArray(body.messages) || body.messages.length === 0) return error(400, "'messages' must be a non-empty array", "invalid_request_error", null, "messages");
      for (const [i, m] of body.messages.entries()) {
        if (!m || !ROLES.has(m.role)) return error(400, `Invalid value for 'messages[${i}].role'`, "invalid_request_error", null, `messages[${i}].role`);
        if (typeof m.content !== "string") return error(400, `Invalid type for 'messages[${i}].content': expected a string`, "invalid_request_error", null, `messages[${i}].content`);
      }
      if (body.temperature !== undefined && (typeof body.temperature !== "number" || body.temperature < 0 || body.temperature > 2)) {
        return error(400, "temperature must be between 0 and 2", "invalid_request_error", null, "temperature");
      }
      if (body.max_tokens !== undefined && (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)) return error(400, "max_tokens must be a positive integer", "invalid_request_error", null, "max_tokens");
      const format = body.response_format?.type;
      if (body.response_format !== undefined && format !== "text" && format !== "json_object") return error(400, "Invalid response_format type", "invalid_request_error", null, "response_format");
      if (format === "json_object" && !body.messages.some((m) => /json/i.test(m.content))) {
        return error(400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", "invalid_request_error", null, "messages");
      }

      const answer = queue.shift();
      const complete = (content: string) =>
        send(200, {
          id: `chatcmpl-test-${++seq}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body!.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: raw.length >> 2, completion_tokens: content.length >> 2, total_tokens: (raw.length + content.length) >> 2 },
        });
      if (!answer) return complete(behaviour(body));
      if ("status" in answer && !("raw" in answer)) {
        const headers: Record<string, string> = answer.retryAfterSeconds !== undefined ? { "retry-after": String(answer.retryAfterSeconds) } : {};
        const type = answer.status === 429 ? "rate_limit_error" : answer.status >= 500 ? "server_error" : "invalid_request_error";
        return error(answer.status, answer.message ?? (answer.status === 429 ? "Rate limit reached" : "The server had an error while processing your request."), type, null, null, headers);
      }
      if ("raw" in answer) {
        record(answer.status ?? 200);
        res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
        res.end(answer.raw);
        return;
      }
      const content = answer.content ?? behaviour(body);
      if (answer.delayMs) setTimeout(() => complete(content), answer.delayMs);
      else complete(content);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    reply(fn) {
      behaviour = fn;
    },
    enqueue(...answers) {
      queue.push(...answers);
    },
    failNext(status, count = 1, retryAfterSeconds) {
      for (let i = 0; i < count; i++) queue.push({ status, retryAfterSeconds });
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      behaviour = () => "OK";
    },
    lastUserMessage(body) {
      const users = (body?.messages ?? []).filter((m) => m.role === "user");
      return users[users.length - 1]?.content ?? "";
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The fake for a whole test file: started before its tests, reset after each, closed after all.
 * Its members are read through once it has started (using it outside a test is an error).
 */
export function useFakeOpenAi(opts: { apiKey?: string } = {}): FakeOpenAi {
  let started: FakeOpenAi | undefined;
  beforeAll(async () => {
    started = await startFakeOpenAi(opts);
  });
  afterEach(() => started?.reset());
  afterAll(() => started?.close());
  return new Proxy({} as FakeOpenAi, {
    get(_target, key) {
      if (!started) throw new Error("the fake OpenAI server is only there while the file's tests run");
      const value: unknown = Reflect.get(started, key);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
