/**
 * Title and description translation of imported items, behind a small interface of its own: the
 * language-model port (app/providers/language-model/port.ts) has no general text operation (it
 * offers understand / reply / describeCollection), so the import does not go through it.
 *
 * - `local` (default): the garment glossary (./translate.ts): the title rebuilt from what its words
 *   mean, the description written from the item's facts. Deterministic, offline.
 * - `openai` (when LANGUAGE_MODEL=openai): the same OpenAI-compatible chat-completions API as the
 *   assistant (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL, OPENAI_TIMEOUT_MS), asked for a JSON
 *   `{title, description}`; any failure (unreachable, timeout, HTTP error, unusable JSON) falls back
 *   to the local translation for that item, with a warning in the log.
 */
import { z } from "zod";
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import { describe, hasCjk, type DescriptionFacts } from "./translate";

export interface TranslateInput {
  /** The Chinese title, the detail text and attributes as the shop wrote them. */
  title: string;
  description: string;
  attributes: { name: string; value: string }[];
  /** What the glossary read (the local translation and the fallback). */
  facts: DescriptionFacts;
}

export interface Translation {
  title: string;
  /** Paragraphs of plain text. */
  description: string[];
  provider: "local" | "openai";
}

export interface TaobaoTranslator {
  readonly name: "local" | "openai";
  translate(input: TranslateInput): Promise<Translation>;
}

export const localTranslator: TaobaoTranslator = {
  name: "local",
  async translate(input) {
    return { title: input.facts.title, description: describe(input.facts), provider: "local" };
  },
};

const Answer = z.object({
  title: z.string().trim().min(3).max(120),
  description: z.string().trim().min(3).max(2000),
});

export interface OpenAiTranslatorOptions {
  apiKey: string;
  baseUrl: string;
  model: string;
  timeoutMs: number;
  log?: Logger;
  fetch?: typeof fetch;
}

const SYSTEM = [
  "You translate Taobao fashion listings into English product copy for a Western online shop.",
  'Answer ONLY a JSON object {"title": "...", "description": "..."}.',
  "title: at most 70 characters, the garment with its cut, pattern and material (e.g. \"Relaxed Striped Linen Shirt\"); no marketing words, no seasons, no gender words, no brand names.",
  "description: two to four short sentences from the facts given (material, fit, colours, sizes, care); never invent facts.",
].join("\n");

export function createOpenAiTranslator(opts: OpenAiTranslatorOptions): TaobaoTranslator {
  const url = `${opts.baseUrl.trim().replace(/\/+$/, "")}/chat/completions`;
  const doFetch = opts.fetch ?? fetch;
  return {
    name: "openai",
    async translate(input) {
      try {
        const res = await doFetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${opts.apiKey}`, "content-type": "application/json" },
          signal: AbortSignal.timeout(opts.timeoutMs),
          body: JSON.stringify({
            model: opts.model,
            temperature: 0,
            max_tokens: 600,
            response_format: { type: "json_object" },
            messages: [
              { role: "system", content: SYSTEM },
              {
                role: "user",
                content: JSON.stringify({
                  title: input.title,
                  detail: input.description.slice(0, 1500),
                  attributes: input.attributes.slice(0, 20),
                  facts: { garment: input.facts.title, gender: input.facts.gender, composition: input.facts.composition, colours: input.facts.colours, sizes: input.facts.sizes },
                }),
              },
            ],
          }),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { choices?: { message?: { content?: string | null } }[] };
        const content = body.choices?.[0]?.message?.content ?? "";
        const parsed = Answer.safeParse(parseJson(content));
        if (!parsed.success) throw new Error("the answer is not the JSON asked for");
        if (hasCjk(parsed.data.title)) throw new Error("the title is not in English");
        const description = parsed.data.description
          .split(/\n+/)
          .map((l) => l.trim())
          .filter(Boolean);
        return { title: parsed.data.title, description, provider: "openai" };
      } catch (e) {
        opts.log?.warn({ err: e instanceof Error ? e.message : String(e) }, "taobao import: hosted translation failed; using the glossary");
        return localTranslator.translate(input);
      }
    },
  };
}

function parseJson(text: string): unknown {
  const t = text.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  try {
    return JSON.parse(t);
  } catch {
    const a = t.indexOf("{");
    const b = t.lastIndexOf("}");
    if (a >= 0 && b > a) {
      try {
        return JSON.parse(t.slice(a, b + 1));
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}

export function createTranslator(config: Pick<AppConfig, "LANGUAGE_MODEL" | "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_MODEL" | "OPENAI_TIMEOUT_MS">, log?: Logger): TaobaoTranslator {
  if (config.LANGUAGE_MODEL !== "openai" || !config.OPENAI_API_KEY) return localTranslator;
  return createOpenAiTranslator({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
    model: config.OPENAI_MODEL ?? "gpt-4o-mini",
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    log,
  });
}
