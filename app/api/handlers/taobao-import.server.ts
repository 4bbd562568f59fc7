import type { taobaoImportEndpoints } from "~/contract/taobao-import";
import {
  getImportJob,
  importErrorGroups,
  importStatus,
  retryAllImports,
  retryImportJob,
  retryImportPage,
  retryImportsByMessage,
  searchImportJobs,
  submitImport,
} from "~/services/taobao-import/jobs.server";
import type { HandlersFor } from "../router.server";

export const taobaoImportHandlers: HandlersFor<typeof taobaoImportEndpoints> = {
  taobaoImportSubmit: async ({ ctx, input }) => submitImport(ctx, input.body),
  taobaoImportStatus: async ({ ctx, input }) => importStatus(ctx, input.query),
  taobaoImportJobsSearch: async ({ ctx, input }) => searchImportJobs(ctx, input.query),
  taobaoImportJobGet: async ({ ctx, input }) => getImportJob(ctx, input.params.id),
  taobaoImportErrorMessages: async ({ ctx, input }) => importErrorGroups(ctx.db, input.query),
  taobaoImportRetry: async ({ ctx, input }) => retryImportJob(ctx, input.params.id),
  taobaoImportRetryPage: async ({ ctx, input }) => retryImportPage(ctx, input.body),
  taobaoImportRetryAll: async ({ ctx, input }) => retryAllImports(ctx, input.body),
  taobaoImportRetryByMessage: async ({ ctx, input }) => retryImportsByMessage(ctx, input.body.message),
};
