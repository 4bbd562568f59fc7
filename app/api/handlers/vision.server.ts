import type { visionEndpoints } from "~/contract/vision";
import { createEntry, createTemporaryEntry, detectFacesAndLogos, listEntries, readUpload, readUrl, searchByImage, updateEntry } from "~/services/vision.server";
import type { HandlersFor } from "../router.server";

export const visionHandlers: HandlersFor<typeof visionEndpoints> = {
  visionProductSearch: async ({ ctx, input, auth }) => {
    const jpeg = await readUpload(input.body.image);
    return searchByImage(ctx, jpeg, { target_gender: input.body.target_gender, limit: input.body.limit, user: auth.user });
  },
  visionProductSearchUrl: async ({ ctx, input, auth }) => {
    const jpeg = await readUrl(ctx, input.body.url);
    return searchByImage(ctx, jpeg, { target_gender: input.body.target_gender, limit: input.body.limit, user: auth.user });
  },
  visionDetectFacesAndLogos: async ({ ctx, input }) => {
    const jpeg = "url" in input.body ? await readUrl(ctx, input.body.url) : await readUpload(input.body.image);
    return detectFacesAndLogos(ctx, jpeg);
  },
  visionSearchEntriesList: async ({ ctx, auth }) => listEntries(ctx, auth.user!),
  visionSearchEntriesCreate: async ({ ctx, input, auth }) => createEntry(ctx, auth.user!, input.body),
  visionSearchEntriesCreateTemporary: async ({ ctx, input, auth }) => createTemporaryEntry(ctx, auth.user!, input.body),
  visionSearchEntriesUpdate: async ({ ctx, input, auth }) => updateEntry(ctx, auth.user!, input.params.id, input.body),
};
