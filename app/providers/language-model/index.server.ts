/**
 * Picks the language model from configuration (LANGUAGE_MODEL, formerly LLM_ADAPTER):
 * - `local` (default): deterministic rules, the search query parser and templates (./local.server.ts);
 * - `openai`: any OpenAI-compatible chat-completions API (OPENAI_BASE_URL, OPENAI_API_KEY,
 *   OPENAI_MODEL; the key is checked by the config at start-up). When the hosted model fails for a
 *   call (unreachable, timed out, an error after the retry), that call is answered by the local
 *   model and a warning is logged, so the assistant keeps answering; the answer's `provider` says
 *   which model produced it. The Taobao import's translation goes through the same model (the
 *   local one translates with the garment glossary).
 *
 * Both read the catalogue's vocabulary (colour names, product types, stores, sizes, words) through
 * the `vocabulary` function the caller passes (the app context: the search engine's cache), so the
 * provider does not import the search service.
 */
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import type { ParseContext } from "~/lib/query-parser";
import { createLocalLanguageModel } from "./local.server";
import { createOpenAiLanguageModel, DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_MODEL } from "./openai.server";
import { LanguageModelError, type LanguageModelPort } from "./port";

export type { LanguageModelPort } from "./port";

type LanguageModelConfig = Pick<AppConfig, "LANGUAGE_MODEL" | "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_MODEL" | "OPENAI_TIMEOUT_MS">;

export function createLanguageModel(config: LanguageModelConfig, vocabulary: () => Promise<ParseContext>, log?: Logger): LanguageModelPort {
  const local = createLocalLanguageModel({ vocabulary });
  if (config.LANGUAGE_MODEL !== "openai") return local;
  if (!config.OPENAI_API_KEY) throw new Error("LANGUAGE_MODEL=openai needs OPENAI_API_KEY");
  const hosted = createOpenAiLanguageModel({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL,
    model: config.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    local,
    vocabulary,
    log,
  });
  return withLocalFallback(hosted, local, log);
}

/** The hosted model, with the local one answering any call the hosted one fails (LanguageModelError). */
export function withLocalFallback(hosted: LanguageModelPort, local: LanguageModelPort, log?: Logger): LanguageModelPort {
  const guard = async <T>(what: string, call: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof LanguageModelError)) throw e;
      log?.warn({ err: e, call: what }, `language model ${hosted.name} failed; answering with the local model`);
      return fallback();
    }
  };
  return {
    name: hosted.name,
    understand: (input) => guard("understand", () => hosted.understand(input), () => local.understand(input)),
    reply: (input) => guard("reply", () => hosted.reply(input), () => local.reply(input)),
    describeCollection: (input) => guard("describeCollection", () => hosted.describeCollection(input), () => local.describeCollection(input)),
    translateListing: (input) => guard("translateListing", () => hosted.translateListing(input), () => local.translateListing(input)),
    adCopy: (input) => guard("adCopy", () => hosted.adCopy(input), () => local.adCopy(input)),
    socialsCopy: (input) => guard("socialsCopy", () => hosted.socialsCopy(input), () => local.socialsCopy(input)),
  };
}
