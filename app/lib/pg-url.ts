/**
 * Turns a postgresql:// URL into node-postgres connection settings. A `host` query parameter
 * (libpq style) selects a unix-socket directory, which is how the embedded PGlite is reached.
 */
export interface PgConnectionConfig {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
  ssl?: boolean;
}

export function pgConfigFromUrl(url: string): PgConnectionConfig {
  const u = new URL(url);
  const socketHost = u.searchParams.get("host");
  const sslmode = u.searchParams.get("sslmode");
  return {
    host: socketHost ?? (u.hostname || "localhost"),
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || "postgres"),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.slice(1) || "postgres"),
    ssl: sslmode === "require" || sslmode === "verify-full" ? true : undefined,
  };
}
