/**
 * Every endpoint of the API, by a stable name. Areas add their own `*Endpoints` object here.
 */
import { usersEndpoints } from "./users";
import { productsEndpoints } from "./products";
import { systemEndpoints } from "./system";

export const endpoints = {
  ...systemEndpoints,
  ...usersEndpoints,
  ...productsEndpoints,
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

export * from "./endpoint";
export * from "./messages";
export * from "./permissions";
export * from "./common";
export * from "./users";
export * from "./products";
