import type { AppConfig } from "~/config.server";

/**
 * The app's public address for links sent out of a request (emails, App Bridge): APP_URL, else
 * SHOPIFY_APP_URL, else where this process listens (server.ts records the real port when PORT=0).
 */
export function appBaseUrl(config: Pick<AppConfig, "APP_URL" | "SHOPIFY_APP_URL" | "HOST" | "PORT">): string {
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  const url = config.APP_URL ?? config.SHOPIFY_APP_URL ?? `http://${host}:${config.PORT}`;
  return url.replace(/\/+$/, "");
}
