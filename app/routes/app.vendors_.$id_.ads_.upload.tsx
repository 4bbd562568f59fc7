/** Upload of one image for an ad request (the request form sends each dropped image here): see app/lib/vendor-ads-upload.server.ts. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { uploadGetAnswer, vendorAdImageUpload } from "~/lib/vendor-ads-upload.server";

// Opened directly (GET): the same refusal as other methods, rather than Remix's "no loader" error.
export const loader = () => uploadGetAnswer();
export const action = (args: ActionFunctionArgs) => vendorAdImageUpload(args);
