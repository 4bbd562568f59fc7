/**
 * The API's route table for the storefront's client: for each endpoint name its method and path.
 * In tests and in the dev server this is the contract itself; the production build replaces this
 * module with a table generated from the contract (storefront/vite.config.ts, the same generator
 * as the theme blocks'), so the contract's zod schemas stay out of the shoppers' JavaScript.
 */
export { endpoints as apiRoutes } from "~/contract";
