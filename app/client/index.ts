/**
 * The one typed client of the API, used by the React storefront and the theme app blocks.
 * Paths and payload shapes come from the contract; nothing here repeats them. The runtime is in
 * ./core.ts (zod-free); the theme blocks use it with a route table generated from the contract.
 */
import { endpoints, type EndpointDef, type EndpointInput, type EndpointOutput, type Endpoints } from "~/contract";
import { createRouteClient, type ApiClientOptions, type RouteDef } from "./core";

export { ApiClientError, createRouteClient, type ApiClientOptions, type ClientFor, type RouteDef } from "./core";
export { addToThemeCart, announceThemeCart, getThemeCart, numericVariantId, ThemeCartError, type ThemeCart, type ThemeCartOptions } from "./theme-cart";

type StrictMethods = { [K in keyof Endpoints]: {} extends EndpointInput<Endpoints[K]> ? (input?: EndpointInput<Endpoints[K]>) => Promise<EndpointOutput<Endpoints[K]>> : (input: EndpointInput<Endpoints[K]>) => Promise<EndpointOutput<Endpoints[K]>> };

export type ApiClient = StrictMethods & {
  call<E extends EndpointDef>(def: E, input?: EndpointInput<E>): Promise<EndpointOutput<E>>;
  url(def: RouteDef, input?: { params?: Record<string, unknown>; query?: Record<string, unknown> }): string;
};

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  return createRouteClient(endpoints as Record<string, EndpointDef>, options) as unknown as ApiClient;
}

export { endpoints };
