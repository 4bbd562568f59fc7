/**
 * What the search does when products were published or changed in bulk (a catalogue sync,
 * scheduled drops going live): refresh its vocabulary in the background and check saved searches.
 */
import type { AppContext } from "~/context.server";
import { enqueueSearchNotificationCheck } from "./notifications.server";
import { markSearchVocabularyStale } from "./vocabulary.server";

export async function onProductsPublished(ctx: Pick<AppContext, "db" | "queue">, reason: string) {
  markSearchVocabularyStale(ctx.db);
  await enqueueSearchNotificationCheck(ctx, reason);
}
