/**
 * The action of a review queue (proposed variant images, proposed image edits; the page's half is
 * ReviewQueue.tsx): the permission guard, then `bulk-approve` / `bulk-reject` with the selected
 * `ids`, or one row's intent with its `id`, answered as `{ ok, message }` or `{ ok: false, error }`.
 */
import type { z } from "zod";
import { IdParams } from "~/contract/common";
import type { Permission } from "~/contract/permissions";
import { getAppContext, type AppContext } from "~/context.server";
import type { ApiError } from "~/api/errors.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { bulkOutcome, type BulkFailure, type BulkReport } from "~/lib/admin-list";
import { formOf } from "~/lib/body-limit.server";

export type ReviewActionResult = { ok: true; message: string; failures?: BulkFailure[] } | { ok: false; error: string };

export interface ReviewIntents {
  bulk: {
    schema: z.ZodType<{ action: "approve" | "reject"; ids: string[] }>;
    run: (action: "approve" | "reject", ids: string[]) => Promise<BulkReport>;
    /** What a row is called in the answer ("3 edits approved."). */
    nouns: readonly [string, string];
    /** The refusal when the schema names no reason. */
    noSelection: string;
  };
  /** The refusal of a row intent without an id ("Which edit?"). */
  missingId: string;
  /** Each row intent: does it and answers the success message. */
  row: Record<string, (id: string) => Promise<string>>;
}

export interface ReviewQueueAction {
  permission: Permission;
  intents: (ctx: AppContext, reviewerId: string) => ReviewIntents;
  /** The message of a refusal the service threw, or null to let it through as a server error. */
  refusal: (err: ApiError) => string | null;
}

export async function reviewQueueAction(request: Request, { permission, intents, refusal }: ReviewQueueAction): Promise<ReviewActionResult> {
  const { user } = await requireAdmin(request, permission);
  const spec = intents(getAppContext(), user.id);
  const form = await formOf(request);
  try {
    return await runIntent(form, spec);
  } catch (e) {
    const error = refusal(toApiError(e));
    if (error === null) throw e;
    return { ok: false, error };
  }
}

async function runIntent(form: FormData, spec: ReviewIntents): Promise<ReviewActionResult> {
  const intent = String(form.get("intent"));
  if (intent === "bulk-approve" || intent === "bulk-reject") {
    const parsed = spec.bulk.schema.safeParse({ action: intent === "bulk-approve" ? "approve" : "reject", ids: form.getAll("ids") });
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? spec.bulk.noSelection };
    const r = await spec.bulk.run(parsed.data.action, parsed.data.ids);
    return bulkOutcome(r, parsed.data.action === "approve" ? "approved" : "rejected", spec.bulk.nouns);
  }
  const id = IdParams.safeParse({ id: form.get("id") });
  if (!id.success) return { ok: false, error: spec.missingId };
  const run = Object.prototype.hasOwnProperty.call(spec.row, intent) ? spec.row[intent] : undefined;
  if (!run) return { ok: false, error: "Unknown action" };
  return { ok: true, message: await run(id.data.id) };
}
