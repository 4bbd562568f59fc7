/**
 * Composition text → fibres and percentages ("95%棉 5%氨纶", "cotton 95% spandex 5%"), with the
 * fibre vocabulary in English and Chinese. Pure: used by the companion's material sections, the
 * Taobao mapping and the material category mapping (./categories.server.ts).
 */

export interface FibreDef {
  name: string;
  words: string[];
}

/** Fibre vocabulary, English and Chinese (Taobao titles); longer words are matched first. */
export const FIBRES: FibreDef[] = [
  { name: "cotton", words: ["organic cotton", "pima cotton", "cotton", "棉"] },
  { name: "linen", words: ["linen", "flax", "亚麻", "苎麻", "麻"] },
  { name: "silk", words: ["mulberry silk", "silk", "真丝", "桑蚕丝", "蚕丝"] },
  { name: "cashmere", words: ["cashmere", "羊绒", "山羊绒"] },
  { name: "mohair", words: ["mohair", "马海毛"] },
  { name: "alpaca", words: ["alpaca", "羊驼毛"] },
  { name: "wool", words: ["merino wool", "merino", "lambswool", "wool", "羊毛", "绵羊毛"] },
  { name: "polyester", words: ["polyester", "涤纶", "聚酯纤维"] },
  { name: "polyamide", words: ["polyamide", "nylon", "锦纶", "尼龙", "聚酰胺"] },
  { name: "elastane", words: ["elastane", "spandex", "lycra", "氨纶"] },
  { name: "viscose", words: ["viscose", "rayon", "粘纤", "粘胶", "黏纤", "人造棉"] },
  { name: "modal", words: ["modal", "莫代尔"] },
  { name: "lyocell", words: ["lyocell", "tencel", "天丝", "莱赛尔"] },
  { name: "acrylic", words: ["acrylic", "腈纶"] },
  { name: "hemp", words: ["hemp", "汉麻", "大麻"] },
  { name: "cupro", words: ["cupro", "铜氨"] },
  { name: "leather", words: ["leather", "真皮", "皮革"] },
  { name: "suede", words: ["suede", "麂皮"] },
];

const WORDS = FIBRES.flatMap((f) => f.words.map((w) => ({ word: w, fibre: f.name }))).sort((a, b) => b.word.length - a.word.length);
const isCjk = (s: string) => /[\u3400-\u9fff]/.test(s);

export interface Fibre {
  fibre: string;
  percent: number | null;
}

/**
 * Reads fibres and their percentages from free text: "55% linen, 45% cotton", "cotton 95%,
 * elastane 5%", "棉95% 氨纶5%", "95%棉", "纯棉" (pure: 100%). A percentage pairs with the fibre
 * next to it in the same clause (no comma between); a single fibre without a percentage gets
 * what is left of 100%. Fibres named without any percentage are returned with null.
 */
export function parseComposition(text: string): Fibre[] {
  const src = text.toLowerCase();
  const taken = new Array<boolean>(src.length).fill(false);
  const found: { fibre: string; start: number; end: number; pure: boolean }[] = [];
  for (const { word, fibre } of WORDS) {
    const re = isCjk(word) ? new RegExp(word, "g") : new RegExp(`\\b${word.replace(/\s+/g, "[\\s-]+")}\\b`, "g");
    for (const m of src.matchAll(re)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (taken.slice(start, end).some(Boolean)) continue;
      // A lining or trim material is not the composition of the shell.
      const after = src.slice(end, end + 12);
      if (/^\s*(lining|trim)\b/.test(after) || /^(里料|里布|内衬)/.test(after)) continue;
      for (let i = start; i < end; i++) taken[i] = true;
      const before = src.slice(Math.max(0, start - 6), start);
      const pure = /(纯|全|100%\s*)$/.test(before) || /\b(pure|100% pure)\s*$/.test(before);
      found.push({ fibre, start, end, pure });
    }
  }
  found.sort((a, b) => a.start - b.start);
  const percents = [...src.matchAll(/(\d{1,3}(?:[.,]\d+)?)\s*%/g)].map((m) => ({ value: Number(m[1].replace(",", ".")), start: m.index!, end: m.index! + m[0].length }));

  const SEPARATOR = /[,;，；、/\n|]|\band\b|\d/;
  const gap = (from: number, to: number) => {
    if (to < from) return Infinity;
    const between = src.slice(from, to);
    if (SEPARATOR.test(between) || between.includes("%") || between.length > 25) return Infinity;
    return between.trim().length + (between.length > between.trim().length ? 0.5 : 0);
  };
  // Which side the text puts fibres on ("55% linen" vs "linen 55%"), from the unambiguous pairs.
  let afterVotes = 0;
  let beforeVotes = 0;
  const sides = percents.map((p) => {
    const after = found.filter((f) => gap(p.end, f.start) < Infinity).sort((a, b) => a.start - b.start)[0];
    const before = found.filter((f) => gap(f.end, p.start) < Infinity).sort((a, b) => b.start - a.start)[0];
    if (after && !before) afterVotes++;
    if (before && !after) beforeVotes++;
    return { p, after, before };
  });
  const out = new Map<string, number | null>();
  const used = new Set<(typeof found)[number]>();
  for (const { p, after, before } of sides) {
    if (p.value <= 0 || p.value > 100) continue;
    let pick = after && !used.has(after) ? after : undefined;
    const alt = before && !used.has(before) ? before : undefined;
    if (pick && alt) {
      const ga = gap(p.end, pick.start);
      const gb = gap(alt.end, p.start);
      pick = ga < gb ? pick : gb < ga ? alt : beforeVotes > afterVotes ? alt : pick;
    } else pick = pick ?? alt;
    if (!pick) continue;
    used.add(pick);
    out.set(pick.fibre, (out.get(pick.fibre) ?? 0) + p.value);
  }
  for (const f of found) {
    if (out.has(f.fibre)) continue;
    out.set(f.fibre, f.pure ? 100 : null);
  }
  const fibres = [...out].map(([fibre, percent]) => ({ fibre, percent }));
  const known = fibres.filter((f) => f.percent !== null);
  const unknown = fibres.filter((f) => f.percent === null);
  const sum = known.reduce((s, f) => s + f.percent!, 0);
  if (unknown.length === 1 && known.length > 0 && sum < 100) unknown[0].percent = Math.round((100 - sum) * 10) / 10;
  return fibres.sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function compositionText(fibres: Fibre[], blend = false): string {
  const withPercent = fibres.filter((f) => f.percent !== null);
  if (withPercent.length) {
    const rest = fibres.filter((f) => f.percent === null).map((f) => f.fibre);
    return [...withPercent.map((f) => `${Number.isInteger(f.percent) ? f.percent : f.percent!.toFixed(1)}% ${f.fibre}`), ...rest].join(", ").replace(/^./, (c) => c.toUpperCase());
  }
  const names = fibres.map((f) => f.fibre);
  return `${capitalise(names.join(", "))}${blend ? " blend" : ""}`;
}

/** Every word that names a fibre (its vocabulary and its own name), lower-cased. */
export function fibreWords(fibre: string): string[] {
  const def = FIBRES.find((f) => f.name === fibre);
  return def ? [def.name, ...def.words].map((w) => w.toLowerCase()) : [fibre.toLowerCase()];
}
