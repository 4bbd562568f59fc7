/**
 * The Prisma client (Shopify app template convention). It reaches PostgreSQL, or the embedded
 * PGlite, through @prisma/adapter-pg: the Rust-free client needs no engine download.
 */
import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "~/lib/pg-url";

export type Db = PrismaClient;

export function createPrismaClient(databaseUrl: string, opts: { maxConnections?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ ...pgConfigFromUrl(databaseUrl), max: opts.maxConnections ?? 8 });
  return new PrismaClient({ adapter });
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
