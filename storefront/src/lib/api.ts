import { createContext, useContext } from "react";
import type { ApiClient } from "~/client";
import { ApiClientError, createRouteClient } from "~/client/core";
import { Messages } from "~/contract/messages";
import { apiRoutes } from "./api-routes";
import { readBootstrap, replayingFetch } from "./bootstrap";

/**
 * The storefront's API client: same origin, session in an httpOnly cookie (credentials: include).
 * The client library's zod-free runtime over the contract's routes (./api-routes.ts). The first
 * calls of a page are answered from the answers its HTML carries (./bootstrap.ts).
 */
export const api: ApiClient = createRouteClient(apiRoutes, {
  baseUrl: "",
  fetch: replayingFetch(readBootstrap(typeof document !== "undefined" ? document : null), (...args) => globalThis.fetch(...args)),
});

export const ApiContext = createContext<ApiClient>(api);

export function useApi(): ApiClient {
  return useContext(ApiContext);
}

/** A message fit to show a shopper: the server's message, else the fallback. */
export function errorMessage(error: unknown, fallback: string = Messages.INTERNAL): string {
  if (error instanceof ApiClientError && error.message) return error.message;
  if (error instanceof TypeError) return "Could not reach the server. Check your connection and try again.";
  return fallback;
}

/** Whether a failed query should be retried: network errors and 5xx, at most twice; never 4xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiClientError) return error.status >= 500 || error.status === 429;
  return true;
}
