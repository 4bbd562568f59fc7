/**
 * Upload endpoint of the Internal media page (a resource route, so the page can show upload
 * progress through XMLHttpRequest): the same zod schema and service as POST /api/internal-media,
 * answering `{ ok: true, media }` or `{ ok: false, error }` with the API's status codes.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { InternalMediaUploadBody } from "~/contract/internal-media";
import { getAppContext } from "~/context.server";
import { ApiError } from "~/api/errors.server";
import { toApiError } from "~/api/router.server";
import { ONE_IMAGE_FORM_BYTES, readFormData } from "~/lib/body-limit.server";
import { DomainError } from "~/lib/domain-errors";
import { requireAdmin } from "~/lib/staff-auth.server";
import { uploadInternalMedia } from "~/services/internal-media.server";

const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

// Opened directly (GET): the same refusal as other methods, rather than Remix's "no loader" error.
export const loader = () => reply(405, { ok: false, error: "Use POST to upload" }, { allow: "POST" });

export const action = async ({ request }: ActionFunctionArgs) => {
  await requireAdmin(request, "media.manage");
  if (request.method !== "POST") return reply(405, { ok: false, error: "Use POST to upload" }, { allow: "POST" });
  let form: FormData;
  try {
    // Counted while it streams in: a body past the limit is refused before it is all read.
    form = await readFormData(request, ONE_IMAGE_FORM_BYTES);
  } catch (e) {
    if (e instanceof DomainError && e.kind === "too_large") return reply(413, { ok: false, error: e.message }, { connection: "close" });
    return reply(400, { ok: false, error: 'Send the upload as multipart/form-data with the image in a "file" field' });
  }
  const parsed = InternalMediaUploadBody.safeParse(form);
  if (!parsed.success) return reply(400, { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid upload" });
  try {
    const media = await uploadInternalMedia(getAppContext(), parsed.data);
    return reply(201, { ok: true, media });
  } catch (e) {
    if (e instanceof ApiError || e instanceof DomainError) {
      const err = toApiError(e);
      return reply(err.status, { ok: false, error: err.message });
    }
    throw e;
  }
};
