/**
 * fast-check arbitraries from zod v4 schemas (the contract's own), for the API fuzz test: values
 * the schema accepts, and — with `hostile` — values meant to break the code behind it: NUL and
 * unpaired surrogates inside strings, huge, tiny and non-integer numbers, over-long strings, path
 * ids with line breaks, wrong types, missing and unknown keys.
 *
 * Reads the schema's definition (`schema._zod.def`, and `_zod.bag` for the bounds and formats
 * its checks collected): object, string (with formats and patterns), number/int bounds, boolean,
 * enum, literal, array, tuple, record, optional/nullable/default/prefault/catch, union,
 * intersection, pipe and transform (generated from their input side), lazy, date, null, unknown.
 */
import fc from "fast-check";
import type { z } from "zod";

interface Def {
  type: string;
  [k: string]: unknown;
}
/** The bounds and format a schema's checks set (`def.checks`; formats such as z.email() sit on the def itself). */
interface Bounds {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: RegExp;
  int?: boolean;
}

type Schema = z.ZodType | z.core.$ZodType;
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;

function boundsOf(s: Schema): Bounds {
  const def = defOf(s);
  const b: Bounds = { format: typeof def.format === "string" ? def.format : undefined };
  if (b.format && /int/.test(b.format)) b.int = true;
  for (const check of (def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []) {
    const c = check._zod.def;
    switch (c.check) {
      case "min_length":
        b.minLength = Math.max(b.minLength ?? 0, c.minimum as number);
        break;
      case "max_length":
        b.maxLength = Math.min(b.maxLength ?? Infinity, c.maximum as number);
        break;
      case "length_equals":
        b.minLength = b.maxLength = c.length as number;
        break;
      case "greater_than":
        if (b.min === undefined || (c.value as number) >= b.min) [b.min, b.minExclusive] = [c.value as number, !c.inclusive];
        break;
      case "less_than":
        if (b.max === undefined || (c.value as number) <= b.max) [b.max, b.maxExclusive] = [c.value as number, !c.inclusive];
        break;
      case "number_format":
        b.int = /int/.test(String(c.format));
        break;
      case "string_format":
        if (c.format === "regex" && c.pattern instanceof RegExp) b.pattern = c.pattern;
        else b.format = String(c.format);
        break;
    }
  }
  return b;
}

export interface ArbitraryOptions {
  /** Mix hostile values in at every level. */
  hostile: boolean;
  /** Strings to offer for fields that look like ids (seeded rows), so some calls reach real records. */
  knownIds?: readonly string[];
}

/** Strings that have broken servers: PostgreSQL-unstorable text, path and line breaks, SQL/JSON syntax, huge lengths. */
export const HOSTILE_STRINGS: readonly string[] = [
  "a\u0000b",
  "\u0000",
  "a\ud800",
  "\udc00z",
  "line\nbreak",
  "carriage\rreturn",
  "%0A",
  "%00",
  "../../etc/passwd",
  "' OR 1=1 --",
  "{\"$ne\":null}",
  "undefined",
  "null",
  "NaN",
  "-1",
  "0",
  "1e309",
  " ",
  "",
  "👗\u200d🔥",
  "x".repeat(10_001),
  "gid://shopify/Product/99999999999999999999",
  "00000000-0000-0000-0000-000000000000",
];

export const HOSTILE_NUMBERS: readonly number[] = [1.7e308, -1.7e308, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 31, -1, 0, -0, 0.5, 1e-320, 1e21];

/** Any JSON-ish value of the wrong kind, for a field that expects something else. */
const wrongType = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constant([]),
    fc.constant({}),
    fc.constant([["nested"]]),
    fc.constant({ nested: { deeper: "\u0000" } }),
  );

const ID_LIKE = /(^|_)(id|ids|handle|slug|gid|token|key|code)$/i;

function stringArb(schema: Schema, opts: ArbitraryOptions, fieldName: string | undefined): fc.Arbitrary<string> {
  const b = boundsOf(schema);
  const minLength = b.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(b.maxLength ?? 40, 60));
  let valid: fc.Arbitrary<string>;
  switch (b.format) {
    case "email":
      valid = fc.emailAddress();
      break;
    case "uuid":
    case "guid":
      valid = fc.uuid();
      break;
    case "url":
      valid = fc.webUrl();
      break;
    case "datetime":
      valid = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case "date":
      valid = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      break;
    default:
      valid = b.pattern ? fc.stringMatching(b.pattern).filter((v) => v.length >= minLength && v.length <= Math.max(maxLength, minLength)) : fc.string({ minLength, maxLength });
  }
  const known = opts.knownIds?.length && fieldName && ID_LIKE.test(fieldName) ? [fc.constantFrom(...opts.knownIds)] : [];
  const options: fc.Arbitrary<string>[] = [valid, ...known];
  if (opts.hostile) options.push(fc.constantFrom(...HOSTILE_STRINGS), valid.map((s) => `${s}\u0000`), valid.map((s) => `\ud83d${s}`));
  return fc.oneof(...options);
}

function numberArb(schema: Schema, opts: ArbitraryOptions): fc.Arbitrary<number> {
  const b = boundsOf(schema);
  const min = Math.max(b.min ?? (b.int ? -1000 : -1e6), -1e9);
  const max = Math.max(min, Math.min(b.max ?? (b.int ? 1000 : 1e6), 1e9));
  const valid = b.int
    ? fc.integer({ min: Math.ceil(min) + (b.minExclusive ? 1 : 0), max: Math.max(Math.ceil(min) + (b.minExclusive ? 1 : 0), Math.floor(max) - (b.maxExclusive ? 1 : 0)) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: !!b.minExclusive && min < max, maxExcluded: !!b.maxExclusive && min < max });
  return opts.hostile ? fc.oneof(valid, fc.constantFrom(...HOSTILE_NUMBERS), fc.double()) : valid;
}

/** An arbitrary of values for `schema`; `fieldName` hints at ids (known ids are offered). */
export function arbitraryOf(schema: Schema, opts: ArbitraryOptions, fieldName?: string, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: unknown, name = fieldName) => arbitraryOf(s as Schema, opts, name, depth + 1);
  const withWrongType = (a: fc.Arbitrary<unknown>) => (opts.hostile ? fc.oneof({ arbitrary: a, weight: 4 }, { arbitrary: wrongType(), weight: 1 }) : a);
  if (depth > 8) return fc.constant(null);

  switch (def.type) {
    case "string":
      return withWrongType(stringArb(schema, opts, fieldName));
    case "number":
      return withWrongType(numberArb(schema, opts));
    case "bigint":
      return withWrongType(fc.bigInt().map(String));
    case "boolean":
      return withWrongType(fc.boolean());
    case "date":
      return withWrongType(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
    case "null":
      return withWrongType(fc.constant(null));
    case "undefined":
    case "void":
      return fc.constant(undefined);
    case "any":
    case "unknown":
      return fc.oneof(fc.jsonValue({ maxDepth: 2 }), ...(opts.hostile ? [wrongType()] : []));
    case "never":
      return wrongType();
    case "enum": {
      const values = Object.values(def.entries as Record<string, string | number>);
      return withWrongType(fc.constantFrom(...values));
    }
    case "literal": {
      const values = def.values as unknown[];
      return withWrongType(fc.constantFrom(...values));
    }
    case "optional":
      return fc.oneof(fc.constant(undefined), inner(def.innerType));
    case "nullable":
      return fc.oneof(fc.constant(null), inner(def.innerType));
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return fc.oneof(fc.constant(undefined), inner(def.innerType));
    case "pipe":
      // A pipe validates its input side first (transforms included): generate for that side,
      // unless it is a bare transform, whose output side says what it wants.
      return defOf(def.in as Schema).type === "transform" ? inner(def.out) : inner(def.in);
    case "transform":
      return fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 }));
    case "lazy":
      return inner((def.getter as () => Schema)());
    case "array": {
      const b = boundsOf(schema);
      const minLength = b.minLength ?? 0;
      const maxLength = Math.min(b.maxLength ?? minLength + 4, minLength + 4);
      const valid = fc.array(inner(def.element), { minLength, maxLength });
      return withWrongType(opts.hostile ? fc.oneof(valid, fc.array(inner(def.element), { minLength: 0, maxLength: Math.min(b.maxLength ?? 30, 200) + 2 })) : valid);
    }
    case "tuple":
      return withWrongType(fc.tuple(...(def.items as Schema[]).map((i) => inner(i))));
    case "set":
      return withWrongType(fc.array(inner(def.valueType), { maxLength: 4 }));
    case "record": {
      const key = stringArb(def.keyType as Schema, { ...opts, knownIds: undefined }, undefined).filter((k) => k !== "__proto__");
      return withWrongType(fc.dictionary(key, inner(def.valueType), { maxKeys: 4 }));
    }
    case "map":
      return withWrongType(fc.constant({}));
    case "union":
      return fc.oneof(...(def.options as Schema[]).map((o) => inner(o)));
    case "intersection":
      return fc.tuple(inner(def.left), inner(def.right)).map(([l, r]) => (l && r && typeof l === "object" && typeof r === "object" ? { ...l, ...r } : l));
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      const entries = Object.entries(shape);
      const record = fc.record(Object.fromEntries(entries.map(([k, s]) => [k, arbitraryOf(s, opts, k, depth + 1)]))).map((o) =>
        Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
      );
      if (!opts.hostile) return record;
      // Hostile: a required key dropped, or an unknown key added.
      const keys = entries.map(([k]) => k);
      const mutated = fc.tuple(record, keys.length ? fc.constantFrom(...keys) : fc.constant(""), fc.boolean(), wrongType()).map(([o, k, drop, extra]) => {
        const copy: Record<string, unknown> = { ...o };
        if (drop && k) delete copy[k];
        else copy["unexpected\u0000key"] = extra;
        return copy;
      });
      return withWrongType(fc.oneof({ arbitrary: record, weight: 3 }, { arbitrary: mutated, weight: 1 }));
    }
    case "custom":
      // z.instanceof(...) (Blob, FormData): multipart bodies are built by the caller from the endpoint's field list.
      return fc.constant(undefined);
    default:
      return wrongType();
  }
}
