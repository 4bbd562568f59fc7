import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

export const loader = (_args: LoaderFunctionArgs) => redirect("/api/docs");
