/**
 * Chooses the Taobao source from configuration: `local` (the demo catalogue shipped with the demo
 * data) or `http` (the item API at TAOBAO_API_URL with TAOBAO_API_KEY; the config check at start-up
 * requires both).
 */
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import { createHttpTaobao } from "./http.server";
import { createLocalTaobao } from "./local.server";
import type { TaobaoSourcePort } from "./port";

export * from "./port";

type TaobaoConfig = Pick<AppConfig, "TAOBAO_ADAPTER" | "TAOBAO_API_URL" | "TAOBAO_API_KEY" | "TAOBAO_API_TIMEOUT_MS" | "TAOBAO_API_RETRIES" | "TAOBAO_API_RATE_LIMIT">;

export function createTaobaoSource(config: TaobaoConfig, log?: Logger): TaobaoSourcePort {
  if (config.TAOBAO_ADAPTER !== "http") return createLocalTaobao();
  if (!config.TAOBAO_API_URL || !config.TAOBAO_API_KEY) throw new Error("TAOBAO_ADAPTER=http needs TAOBAO_API_URL and TAOBAO_API_KEY");
  return createHttpTaobao({
    baseUrl: config.TAOBAO_API_URL,
    apiKey: config.TAOBAO_API_KEY,
    timeoutMs: config.TAOBAO_API_TIMEOUT_MS,
    retries: config.TAOBAO_API_RETRIES,
    ratePerSecond: config.TAOBAO_API_RATE_LIMIT,
    log: log?.child({ adapter: "taobao-http" }),
  });
}
