/**
 * LOCAL MODE ONLY: a small Liquid renderer for the theme preview, so /theme-preview shows the
 * blocks' real markup (extensions/theme-blocks/blocks/*.liquid) instead of a hand-kept copy.
 *
 * It parses with Shopify's own parser (@shopify/liquid-html-parser, the one theme check uses) and
 * evaluates the subset the blocks use: output with filters, `assign`, `if`/`elsif`/`else`,
 * `unless`, `comment`, `schema`, whitespace control, and the filters `t`, `escape`, `default`,
 * `asset_url`, `stylesheet_tag`, `json`, `append`, `prepend`, `size`, `downcase`, `upcase`.
 * Anything else throws, so a block using a construct the preview cannot show fails its test
 * rather than rendering wrongly.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- the parser's AST is walked structurally */
type Node = any;

export type LiquidValue = unknown;

export interface LiquidRenderOptions {
  /** Global objects: shop, routes, product, customer, block, template, request… */
  globals: Record<string, LiquidValue>;
  /** The locale file (`| t`). */
  translations: Record<string, unknown>;
  /** `'file' | asset_url` → the URL the preview serves it at. */
  assetUrl: (file: string) => string;
}

export class LiquidPreviewError extends Error {}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** Output with whitespace control: `{%-` trims the text before a tag, `-%}` the text after it. */
class Out {
  private s = "";
  private skipLeadingWs = false;
  text(t: string) {
    if (this.skipLeadingWs) {
      t = t.replace(/^\s+/, "");
      if (!t) return;
      this.skipLeadingWs = false;
    }
    this.s += t;
  }
  value(t: string) {
    this.skipLeadingWs = false;
    this.s += t;
  }
  trimBefore() {
    this.s = this.s.replace(/\s+$/, "");
  }
  trimAfter() {
    this.skipLeadingWs = true;
  }
  toString() {
    return this.s;
  }
}

function isBlank(v: LiquidValue): boolean {
  if (v === null || v === undefined || v === false) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v as object).length === 0;
  return false;
}

const truthy = (v: LiquidValue) => v !== null && v !== undefined && v !== false;

function toOutput(v: LiquidValue): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map(toOutput).join("");
  if (typeof v === "object") return "";
  return String(v);
}

function lookupKey(obj: Record<string, unknown>, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.split(".")) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function renderLiquid(source: string, parse: (source: string) => Node, opts: LiquidRenderOptions): string {
  const scope: Record<string, LiquidValue> = { ...opts.globals };
  const out = new Out();

  function evalExpr(e: Node): LiquidValue {
    switch (e.type) {
      case "String":
        return e.value;
      case "Number":
        return Number(e.value);
      case "LiquidLiteral":
        return e.keyword === "blank" || e.keyword === "empty" ? { __blank: true } : e.value;
      case "VariableLookup": {
        let cur: unknown = e.name === null ? undefined : scope[e.name];
        for (const l of e.lookups) {
          const key = evalExpr(l);
          if (cur === null || cur === undefined) return undefined;
          if (key === "size" && (Array.isArray(cur) || typeof cur === "string")) cur = cur.length;
          else cur = (cur as Record<string, unknown>)[String(key)];
        }
        return cur;
      }
      default:
        throw new LiquidPreviewError(`The theme preview cannot evaluate a ${e.type} expression`);
    }
  }

  function filterArgs(args: Node[]): { positional: LiquidValue[]; named: Record<string, LiquidValue> } {
    const positional: LiquidValue[] = [];
    const named: Record<string, LiquidValue> = {};
    for (const a of args) {
      if (a.type === "NamedArgument") named[a.name] = evalExpr(a.value);
      else positional.push(evalExpr(a));
    }
    return { positional, named };
  }

  function applyFilter(value: LiquidValue, f: Node): LiquidValue {
    const { positional, named } = filterArgs(f.args ?? []);
    switch (f.name) {
      case "t": {
        const key = String(value ?? "");
        const text = lookupKey(opts.translations, key);
        if (typeof text !== "string") throw new LiquidPreviewError(`Missing translation "${key}"`);
        return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in named ? toOutput(named[k]) : m));
      }
      case "escape":
        return escapeHtml(toOutput(value));
      case "default":
        return isBlank(value) ? positional[0] : value;
      case "asset_url":
        return opts.assetUrl(String(value));
      case "stylesheet_tag":
        return `<link href="${escapeHtml(String(value))}" rel="stylesheet" type="text/css" media="all" />`;
      case "json":
        return JSON.stringify(value ?? null);
      case "append":
        return toOutput(value) + toOutput(positional[0]);
      case "prepend":
        return toOutput(positional[0]) + toOutput(value);
      case "size":
        return Array.isArray(value) || typeof value === "string" ? value.length : 0;
      case "downcase":
        return toOutput(value).toLowerCase();
      case "upcase":
        return toOutput(value).toUpperCase();
      default:
        throw new LiquidPreviewError(`The theme preview has no "${f.name}" filter`);
    }
  }

  function evalVariable(v: Node): LiquidValue {
    let value = evalExpr(v.expression);
    for (const f of v.filters ?? []) value = applyFilter(value, f);
    return value;
  }

  function evalCondition(c: Node): boolean {
    switch (c.type) {
      case "LogicalExpression":
        return c.relation === "and" ? evalCondition(c.left) && evalCondition(c.right) : evalCondition(c.left) || evalCondition(c.right);
      case "Comparison": {
        const left = evalExpr(c.left);
        const right = evalExpr(c.right);
        const blankSide = (x: LiquidValue) => typeof x === "object" && x !== null && (x as { __blank?: boolean }).__blank === true;
        const eq = () => (blankSide(right) ? isBlank(left) : blankSide(left) ? isBlank(right) : left === right || (left == null && right == null));
        switch (c.comparator) {
          case "==":
            return eq();
          case "!=":
          case "<>":
            return !eq();
          case "contains":
            return typeof left === "string" ? left.includes(String(right)) : Array.isArray(left) ? left.includes(right) : false;
          case ">":
            return Number(left) > Number(right);
          case "<":
            return Number(left) < Number(right);
          case ">=":
            return Number(left) >= Number(right);
          case "<=":
            return Number(left) <= Number(right);
          default:
            throw new LiquidPreviewError(`The theme preview has no "${c.comparator}" comparison`);
        }
      }
      default:
        return truthy(evalExpr(c));
    }
  }

  /** Renders source[start, end) where `children` are the nodes inside it. */
  function renderRange(start: number, end: number, children: Node[]) {
    let pos = start;
    for (const child of children) {
      if (child.type === "TextNode") continue;
      out.text(source.slice(pos, child.position.start));
      renderNode(child);
      pos = child.position.end;
    }
    out.text(source.slice(pos, end));
  }

  function renderBranches(node: Node, pick: (branch: Node, index: number) => boolean) {
    const branches: Node[] = node.children ?? [];
    const taken = branches.findIndex((b, i) => pick(b, i));
    if (taken >= 0) {
      const b = branches[taken];
      const trimStart = (taken === 0 ? node.whitespaceEnd : b.whitespaceEnd) === "-";
      const next = branches[taken + 1];
      const trimEnd = (next ? next.whitespaceStart : node.delimiterWhitespaceStart) === "-";
      if (trimStart) out.trimAfter();
      renderRange(b.blockStartPosition.end, b.position.end, b.children ?? []);
      if (trimEnd) out.trimBefore();
    }
  }

  function renderNode(node: Node) {
    switch (node.type) {
      case "LiquidVariableOutput": {
        if (node.whitespaceStart === "-") out.trimBefore();
        if (typeof node.markup === "string") throw new LiquidPreviewError(`Unparsed output: {{ ${node.markup} }}`);
        out.value(toOutput(evalVariable(node.markup)));
        if (node.whitespaceEnd === "-") out.trimAfter();
        return;
      }
      case "LiquidRawTag": {
        if (node.whitespaceStart === "-") out.trimBefore();
        if (node.name === "raw") out.value(node.body.value);
        else if (node.name !== "comment" && node.name !== "schema") throw new LiquidPreviewError(`The theme preview has no {% ${node.name} %} tag`);
        if (node.delimiterWhitespaceEnd === "-") out.trimAfter();
        return;
      }
      case "LiquidTag": {
        if (node.whitespaceStart === "-") out.trimBefore();
        switch (node.name) {
          case "assign":
            scope[node.markup.name] = evalVariable(node.markup.value);
            if (node.whitespaceEnd === "-") out.trimAfter();
            return;
          case "if":
          case "unless": {
            const branches: Node[] = node.children ?? [];
            renderBranches(node, (b, i) => {
              if (i === 0) return node.name === "if" ? evalCondition(node.markup) : !evalCondition(node.markup);
              if (b.name === "elsif") return evalCondition(b.markup);
              if (b.name === "else") return true;
              throw new LiquidPreviewError(`Unexpected {% ${b.name} %}`);
            });
            if (!branches.length && node.whitespaceEnd === "-") out.trimAfter();
            if (node.delimiterWhitespaceEnd === "-") out.trimAfter();
            return;
          }
          case "comment":
            if (node.delimiterWhitespaceEnd === "-") out.trimAfter();
            return;
          default:
            throw new LiquidPreviewError(`The theme preview has no {% ${node.name} %} tag`);
        }
      }
      default:
        throw new LiquidPreviewError(`The theme preview cannot render a ${node.type} node`);
    }
  }

  const doc = parse(source);
  renderRange(0, source.length, doc.children ?? []);
  return out.toString();
}

/** The `{% schema %}` JSON of a block file. */
export function blockSchema(source: string): { name?: string; target?: string; settings?: { id?: string; type: string; default?: unknown }[] } {
  const m = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(source);
  if (!m) throw new LiquidPreviewError("The block has no {% schema %}");
  return JSON.parse(m[1]);
}

/** The block's settings as the theme editor starts them: each setting's default (blank without one). */
export function defaultSettings(schema: ReturnType<typeof blockSchema>): Record<string, LiquidValue> {
  const out: Record<string, LiquidValue> = {};
  for (const s of schema.settings ?? []) {
    if (!s.id) continue;
    out[s.id] = s.default ?? (s.type === "checkbox" ? false : null);
  }
  return out;
}
