/**
 * Fast bulk inserts for the benchmark catalogue: one `INSERT … SELECT … FROM unnest($1, $2, …)`
 * per batch, every column sent as a text array and cast to the column's own type (read from
 * pg_attribute), so enums, arrays, json, numeric and timestamps need no per-table code.
 * Unknown columns fail loudly (the schema moved: fix the generator).
 */
import type pg from "pg";
import type { Row } from "./catalog";

function arrayLiteral(values: unknown[]): string {
  // Numbers need no quoting (vectors: thousands of elements per row, keep this fast).
  if (values.every((v) => typeof v === "number")) return `{${values.join(",")}}`;
  return `{${values
    .map((v) => {
      if (v === null || v === undefined) return "NULL";
      const s = typeof v === "string" ? v : String(v);
      return `"${/["\\]/.test(s) ? s.replace(/\\/g, "\\\\").replace(/"/g, '\\"') : s}"`;
    })
    .join(",")}}`;
}

function toText(v: unknown, json: boolean): string | null {
  if (v === null || v === undefined) return null;
  if (json) return JSON.stringify(v);
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return arrayLiteral(v);
  return JSON.stringify(v);
}

export async function columnTypes(client: pg.Client, table: string): Promise<Map<string, string>> {
  const r = await client.query<{ attname: string; type: string }>(
    `SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute
     WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [`"${table}"`],
  );
  return new Map(r.rows.map((x) => [x.attname, x.type]));
}

/** Inserts rows (all with the keys of the first row) in batches; returns the number inserted. */
export async function insertRows(client: pg.Client, table: string, rows: Row[], batchSize = 5000): Promise<number> {
  if (rows.length === 0) return 0;
  const types = await columnTypes(client, table);
  const cols = Object.keys(rows[0]);
  const missing = cols.filter((c) => !types.has(c));
  if (missing.length) throw new Error(`bench generator: table ${table} has no column(s) ${missing.join(", ")}`);
  const list = cols.map((c) => `"${c}"`).join(", ");
  const unnest = cols.map((_, i) => `$${i + 1}::text[]`).join(", ");
  const alias = cols.map((_, i) => `c${i}`).join(", ");
  const select = cols.map((c, i) => `c${i}::${types.get(c)}`).join(", ");
  const isJson = cols.map((c) => /^jsonb?$/.test(types.get(c)!));
  const sql = `INSERT INTO "${table}" (${list}) SELECT ${select} FROM unnest(${unnest}) AS t(${alias})`;
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const params = cols.map((c, i) => batch.map((r) => toText(r[c], isJson[i])));
    await client.query(sql, params);
  }
  return rows.length;
}
