/**
 * The Prisma client (Shopify app template convention). It reaches PostgreSQL, or the embedded
 * PGlite, through @prisma/adapter-pg: the Rust-free client needs no engine download.
 */
import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "~/lib/pg-url";

export type Db = PrismaClient;

export function createPrismaClient(databaseUrl: string, opts: { maxConnections?: number } = {}): PrismaClient {
  const adapter = serialTransactions(new PrismaPg({ ...pgConfigFromUrl(databaseUrl), max: opts.maxConnections ?? 8 }));
  return new PrismaClient({ adapter });
}

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type PgTransaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;

/**
 * One query at a time on a transaction's connection. Inside an interactive transaction every
 * query goes to one pg client, and Prisma's query plans run some of them concurrently (a read
 * with `include` of several relations loads the relations with Promise.all). pg queues them, but
 * calling `client.query()` while the client is busy is deprecated (removed in pg 9: "Calling
 * client.query() when the client is already executing a query"). Chaining the transaction's
 * queries here keeps the same order and results without relying on that queue. Queries outside a
 * transaction take a pool client each and are not affected.
 */
const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK|END|ABORT)\s*;?\s*$/i;

export function serialTransactions(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter: PgAdapter = await connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx: PgTransaction = await startTransaction(isolationLevel);
      let tail: Promise<unknown> = Promise.resolve();
      // Set once COMMIT or ROLLBACK is queued (a timed-out transaction's ROLLBACK may be queued
      // while one of its statements still waits for a lock): what the query in flight would send
      // next must not run after it, outside the transaction, on a connection back in the pool.
      let ended = false;
      const inTurn = <T>(sql: string, run: () => Promise<T>): Promise<T> => {
        if (ended) return Promise.reject(new Error(`Transaction already closed: refused to run "${sql.slice(0, 60)}" after its end`));
        if (ENDS_TRANSACTION.test(sql)) ended = true;
        const next = tail.then(run, run);
        tail = next.catch(() => undefined);
        return next;
      };
      const queryRaw = tx.queryRaw.bind(tx);
      const executeRaw = tx.executeRaw.bind(tx);
      const commit = tx.commit.bind(tx);
      const rollback = tx.rollback.bind(tx);
      tx.queryRaw = (query) => inTurn(query.sql, () => queryRaw(query));
      tx.executeRaw = (query) => inTurn(query.sql, () => executeRaw(query));
      tx.commit = () => {
        ended = true;
        return commit();
      };
      tx.rollback = () => {
        ended = true;
        return rollback();
      };
      return tx;
    };
    return adapter;
  };
  return factory;
}

declare global {
  // eslint-disable-next-line no-var
  var prismaGlobal: PrismaClient | undefined;
}

/**
 * The process-wide client. The server starts the database (embedded or not) and sets
 * DATABASE_URL before anything asks for it, so it is created lazily on first use.
 */
export function getPrisma(): PrismaClient {
  if (!global.prismaGlobal) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: the server starts the database before serving requests");
    global.prismaGlobal = createPrismaClient(url, { maxConnections: Number(process.env.DB_POOL_MAX ?? 8) });
  }
  return global.prismaGlobal;
}

export function setPrisma(client: PrismaClient | undefined) {
  global.prismaGlobal = client;
}

const prisma = new Proxy({} as PrismaClient, {
  get(_t, prop) {
    const client = getPrisma() as unknown as Record<string | symbol, unknown>;
    const value = client[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
});

export default prisma;
