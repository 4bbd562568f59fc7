/**
 * The Meta Marketing API adapter (ADS_PLATFORM=meta): being written (task H3 step 2).
 */
import type { Logger } from "~/lib/logger.server";
import { AdsPlatformError, type AdsPlatformPort } from "./port";

export interface MetaAdsPlatformOptions {
  accessToken: string;
  /** `act_<digits>`. */
  adAccountId: string;
  pageId: string;
  apiVersion: string;
  graphUrl: string;
  log?: Logger;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export function createMetaAdsPlatform(_opts: MetaAdsPlatformOptions): AdsPlatformPort {
  const unavailable = async (): Promise<never> => {
    throw new AdsPlatformError("unavailable", "The Meta ads adapter is not available yet");
  };
  return { name: "meta", publish: unavailable, pause: unavailable, insights: unavailable };
}
