import type { User } from "@prisma/client";
import type { clonesEndpoints } from "~/contract/clones";
import {
  addClonePhotos,
  createAdminClone,
  createClone,
  deleteClone,
  generateProfileImageView,
  getCloneView,
  getOutfitGenerationStatus,
  getTrainingJob,
  listClones,
  listTrainingJobs,
  processSelectedBaseImages,
  setCloneProfileImage,
  updateClone,
} from "~/services/clones/index.server";
import { outfitOrCloneStatus } from "~/services/outfit-generations/index.server";
import { hasPermission, type AuthState } from "../auth.server";
import type { HandlersFor } from "../router.server";

/** The caller (every clone endpoint needs a signed-in user); admins with ai.train see every clone. */
function caller(auth: AuthState) {
  const user = auth.user as User;
  return { userId: user.id, isAdmin: hasPermission(user, "ai.train") };
}

export const clonesHandlers: HandlersFor<typeof clonesEndpoints> = {
  clonesList: async ({ ctx, auth, input }) => listClones(ctx, caller(auth), input.query),
  clonesCreate: async ({ ctx, auth, input }) => createClone(ctx, caller(auth), input.body),
  clonesAdminCreate: async ({ ctx, auth, input }) => createAdminClone(ctx, caller(auth), input.body),
  clonesProcessSelectedBaseImages: async ({ ctx, auth, input }) => processSelectedBaseImages(ctx, caller(auth), input.body),
  clonesOutfitGenerationStatus: async ({ ctx, auth, input }) =>
    outfitOrCloneStatus(ctx, input.query, () => getOutfitGenerationStatus(ctx, caller(auth), input.query.clone_id), caller(auth).userId),
  clonesTrainingJobsList: async ({ ctx, auth, input }) => listTrainingJobs(ctx, caller(auth), input.query),
  clonesTrainingJobGet: async ({ ctx, auth, input }) => getTrainingJob(ctx, { ...caller(auth), jobId: input.params.id }),
  clonesGetById: async ({ ctx, auth, input }) => getCloneView(ctx, { ...caller(auth), cloneId: input.params.id }),
  clonesUpdate: async ({ ctx, auth, input }) => updateClone(ctx, { ...caller(auth), cloneId: input.params.id }, input.body),
  clonesDelete: async ({ ctx, auth, input }) => deleteClone(ctx, { ...caller(auth), cloneId: input.params.id }),
  clonesAddPhotos: async ({ ctx, auth, input }) => addClonePhotos(ctx, { ...caller(auth), cloneId: input.params.id }, input.body.photos),
  clonesSetProfileImage: async ({ ctx, auth, input }) => setCloneProfileImage(ctx, { ...caller(auth), cloneId: input.params.id }, input.body.profileImageUrl),
  clonesGenerateProfileImage: async ({ ctx, auth, input }) => generateProfileImageView(ctx, { ...caller(auth), cloneId: input.params.id }),
};
