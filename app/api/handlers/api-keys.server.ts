import type { apiKeysEndpoints } from "~/contract/api-keys";
import { createApiKey, listApiKeys, revokeApiKey } from "~/services/api-keys.server";
import type { HandlersFor } from "../router.server";

export const apiKeysHandlers: HandlersFor<typeof apiKeysEndpoints> = {
  apiKeysList: async ({ ctx, input }) => listApiKeys(ctx.db, input.query),
  apiKeysCreate: async ({ ctx, input, auth, log }) => {
    const created = await createApiKey(ctx.db, { name: input.body.name, createdById: auth.user?.id ?? null });
    log.info({ apiKeyId: created.apiKey.id, keyPrefix: created.apiKey.key_prefix }, "api key created");
    return created;
  },
  apiKeysRevoke: async ({ ctx, input, log }) => {
    const revoked = await revokeApiKey(ctx.db, input.params.id);
    log.info({ apiKeyId: revoked.id }, "api key revoked");
    return revoked;
  },
};
