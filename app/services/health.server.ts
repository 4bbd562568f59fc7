import type { AppContext } from "~/context.server";
import { HEARTBEAT_STALE_MS } from "~/jobs/worker.server";

export const APP_VERSION = "0.1.0";

export async function checkHealth(ctx: AppContext) {
  const started = performance.now();
  const database = await ctx.db
    .$queryRaw`SELECT 1`
    .then(() => ({ ok: true, latencyMs: Math.round(performance.now() - started), detail: ctx.config.DATABASE_URL ? "postgresql" : "embedded pglite" }))
    .catch((e: unknown) => ({ ok: false, detail: e instanceof Error ? e.message : String(e) }));
  const storage = await ctx.storage.health();
  const beat = database.ok ? await ctx.db.workerHeartbeat.findUnique({ where: { id: "worker" } }).catch(() => null) : null;
  const lastSeen = beat?.last_seen_at ?? null;
  const workerOk = !!lastSeen && Date.now() - lastSeen.getTime() < HEARTBEAT_STALE_MS;
  const leases = database.ok ? await ctx.queue.leaseStats().catch(() => null) : null;
  // Expired leases are jobs of a worker that died: not degraded by themselves (a live worker takes them over), but shown.
  const abandoned = leases?.expired ? `; ${leases.expired} job${leases.expired === 1 ? "" : "s"} left by a worker that died, taken over by the next claim` : "";
  const worker = {
    ok: workerOk,
    lastSeenAt: lastSeen ? lastSeen.toISOString() : null,
    detail: (workerOk ? "running" : lastSeen ? "no heartbeat for more than 30 s" : "never started") + abandoned,
    ...(leases ? { jobs: { running: leases.running, expiredLeases: leases.expired, leaseMs: ctx.queue.leaseMs } } : {}),
  };
  return {
    status: database.ok && storage.ok && worker.ok ? ("ok" as const) : ("degraded" as const),
    mode: ctx.config.APP_MODE,
    version: APP_VERSION,
    database,
    storage,
    worker,
  };
}
