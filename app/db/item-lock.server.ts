/**
 * Serialises a read-then-write per item: a transaction that first takes a transaction-scoped
 * advisory lock on `key` (e.g. `saved-product:<user>:<product>`), so concurrent calls for the same
 * item run one after the other and each sees what the previous one wrote (N parallel toggles
 * alternate instead of all reading "absent"). Calls for other items do not wait. The lock ends
 * with the transaction. Everything inside must go through `tx`: on the one-connection embedded
 * database a query on the outer client would wait for this transaction forever.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";

export type Tx = Prisma.TransactionClient;

export async function lockItem(tx: Tx, key: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

export function serialisedPerItem<T>(db: Db, key: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await lockItem(tx, key);
    return work(tx);
  });
}
