/**
 * The request form's image upload (a resource route, so the form can send each dropped image as it
 * comes): `multipart/form-data` with the image in "file", answering `{ ok: true, image }` (201) or
 * `{ ok: false, error }` with the API's status codes. For the vendor, and for the ads team filing
 * for a vendor.
 */
import { ApiError } from "~/api/errors.server";
import { toApiError } from "~/api/router.server";
import { getAppContext } from "~/context.server";
import { ONE_IMAGE_FORM_BYTES, readFormData } from "~/lib/body-limit.server";
import { DomainError } from "~/lib/domain-errors";
import { staffError } from "~/lib/staff-errors";
import { storeAdRequestImage } from "~/services/product-ads/request-images.server";
import { adsScope } from "./vendor-ads-pages.server";
import type { Params } from "@remix-run/react";

const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

export const uploadGetAnswer = () => reply(405, { ok: false, error: "Use POST to upload" }, { allow: "POST" });

export async function vendorAdImageUpload({ request, params }: { request: Request; params: Params }): Promise<Response> {
  const scope = await adsScope(request, params);
  if (scope.asAdmin && scope.caller.actor !== "team") throw staffError(403, "Only the ads team uploads images for a vendor");
  if (request.method !== "POST") return uploadGetAnswer();
  let form: FormData;
  try {
    // Counted while it streams in: a body past the limit is refused before it is all read.
    form = await readFormData(request, ONE_IMAGE_FORM_BYTES);
  } catch (e) {
    if (e instanceof DomainError && e.kind === "too_large") return reply(413, { ok: false, error: e.message }, { connection: "close" });
    return reply(400, { ok: false, error: 'Send the upload as multipart/form-data with the image in a "file" field' });
  }
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) return reply(400, { ok: false, error: 'file: an image is required in the "file" field' });
  try {
    const image = await storeAdRequestImage(getAppContext(), file, scope.caller.userId);
    return reply(201, { ok: true, image });
  } catch (e) {
    if (e instanceof ApiError || e instanceof DomainError) {
      const err = toApiError(e);
      return reply(err.status, { ok: false, error: err.message });
    }
    throw e;
  }
}
