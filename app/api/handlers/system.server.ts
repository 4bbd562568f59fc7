import type { systemEndpoints } from "~/contract/system";
import { checkHealth } from "~/services/health.server";
import { buildOpenApiDocument, docsPage } from "../openapi.server";
import type { HandlersFor } from "../router.server";

let openApiCache: ReturnType<typeof buildOpenApiDocument> | undefined;

export const systemHandlers: HandlersFor<typeof systemEndpoints> = {
  health: async ({ ctx, headers }) => {
    headers.set("cache-control", "no-store");
    return checkHealth(ctx);
  },
  openapi: async () => (openApiCache ??= buildOpenApiDocument()),
  docs: async () => docsPage(),
};
