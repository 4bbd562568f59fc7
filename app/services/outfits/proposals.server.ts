/**
 * Looks proposed by the recommendation engine: around a seed product, one product of each garment
 * group that completes it (a top gets a bottom, then shoes and outerwear when the catalogue has
 * them), each chosen by co-purchase / co-view strength with the seed and colour harmony with what is
 * already in the look. Admins accept (the look is stored, source `proposed`) or reject; both are
 * kept as outfit training data, and a decided set of products is never proposed again.
 */
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { OutfitProposal } from "~/contract/outfits";
import { conflictError } from "~/lib/domain-errors";
import { visibleProductWhere } from "~/lib/visibility";
import { getProductCards } from "../catalog.server";
import { requireProducts } from "../styles.server";
import { COMPLEMENTS, HARMONY_SCORE, garmentGroupOf, harmonyOf, proposalKey, type GarmentGroup } from "./garments";
import { createOutfit, getAdminOutfit, setOutfitStatus } from "./curated.server";

/** Candidates considered per call: the newest shown products (co-occurring ones are always added). */
const POOL_SIZE = 1000;
/** Seeds tried for the admin list before giving up on filling it. */
const MAX_SEEDS = 80;
/** A view counts this much of a purchase in "goes together". */
const VIEW_WEIGHT = 0.3;
const CO_WEIGHT = 0.6;
const HARMONY_WEIGHT = 0.4;

const poolSelect = {
  id: true,
  title: true,
  productType: true,
  target_gender: true,
  variants: { select: { color_hex: true }, orderBy: { position: "asc" as const }, take: 1 },
};

interface Candidate {
  id: string;
  title: string;
  group: GarmentGroup;
  gender: TargetGender;
  colour: string | null;
}

const gendersFor = (g: TargetGender): TargetGender[] => (g === "both" ? ["both", "menswear", "womenswear"] : [g, "both"]);

async function loadPool(db: Db, extraIds: string[] = []): Promise<Map<string, Candidate>> {
  const rows = await db.product.findMany({
    where: visibleProductWhere(),
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: POOL_SIZE,
    select: poolSelect,
  });
  const extra = extraIds.length
    ? await db.product.findMany({ where: { ...visibleProductWhere(), id: { in: extraIds } }, select: poolSelect })
    : [];
  const pool = new Map<string, Candidate>();
  for (const r of [...rows, ...extra]) {
    const group = garmentGroupOf(r);
    if (group) pool.set(r.id, { id: r.id, title: r.title, group, gender: r.target_gender, colour: r.variants[0]?.color_hex ?? null });
  }
  return pool;
}

/** Co-purchase (and, weaker, co-view) strength of each other product with the seed, 0..1. */
async function coStrength(db: Db, seedId: string): Promise<{ strength: Map<string, number>; ids: string[] }> {
  const rows = await db.productCoOccurrence.findMany({ where: { product_id: seedId }, select: { kind: true, other_id: true, score: true }, orderBy: { score: "desc" }, take: 400 });
  const raw = new Map<string, number>();
  for (const r of rows) raw.set(r.other_id, (raw.get(r.other_id) ?? 0) + r.score * (r.kind === "purchase" ? 1 : VIEW_WEIGHT));
  const max = Math.max(0, ...raw.values());
  const strength = new Map([...raw].map(([id, v]) => [id, max > 0 ? v / max : 0]));
  return { strength, ids: [...raw.keys()] };
}

interface Built {
  key: string;
  seed: Candidate;
  picks: Candidate[];
  score: number;
  coPurchase: number;
}

function build(seed: Candidate, pool: Map<string, Candidate>, strength: Map<string, number>, decided: Set<string>): Built | null {
  const allowed = new Set(gendersFor(seed.gender));
  const picks: Candidate[] = [seed];
  const { required, optional } = COMPLEMENTS[seed.group];
  for (const group of [...required, ...optional]) {
    let best: { c: Candidate; s: number } | null = null;
    for (const c of pool.values()) {
      if (c.group !== group || !allowed.has(c.gender) || picks.some((p) => p.id === c.id)) continue;
      const s = CO_WEIGHT * (strength.get(c.id) ?? 0) + HARMONY_WEIGHT * HARMONY_SCORE[harmonyOf([...picks, c].map((p) => p.colour))];
      if (!best || s > best.s || (s === best.s && c.id < best.c.id)) best = { c, s };
    }
    if (best) picks.push(best.c);
    else if (required.includes(group)) return null;
  }
  if (picks.length < 2) return null;
  const key = proposalKey(picks.map((p) => p.id));
  if (decided.has(key)) return null;
  const coPurchase = picks.slice(1).reduce((sum, p) => sum + (strength.get(p.id) ?? 0), 0) / (picks.length - 1);
  const harmony = HARMONY_SCORE[harmonyOf(picks.map((p) => p.colour))];
  return { key, seed, picks, score: Math.round((CO_WEIGHT * coPurchase + HARMONY_WEIGHT * harmony) * 1000) / 1000, coPurchase };
}

async function decidedKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.outfitTrainingData.findMany({ where: { proposal_key: { in: keys } }, select: { proposal_key: true } });
  return new Set(rows.map((r) => r.proposal_key!));
}

async function toProposals(db: Db, built: Built[]): Promise<OutfitProposal[]> {
  const cards = new Map((await getProductCards(db, [...new Set(built.flatMap((b) => b.picks.map((p) => p.id)))])).map((c) => [c.id, c]));
  return built.map((b) => ({
    key: b.key,
    name: `${b.seed.title} look`,
    target_gender: b.seed.gender,
    product_ids: b.picks.map((p) => p.id),
    products: b.picks.flatMap((p) => (cards.has(p.id) ? [cards.get(p.id)!] : [])),
    score: b.score,
    attributes: { groups: b.picks.map((p) => p.group), harmony: harmonyOf(b.picks.map((p) => p.colour)), co_purchase: Math.round(b.coPurchase * 1000) / 1000 },
  }));
}

/** A look around one product (the storefront's fallback when no published look holds it); null when none can be made. */
export async function proposeForProduct(db: Db, productId: string): Promise<OutfitProposal | null> {
  const { strength, ids } = await coStrength(db, productId);
  const pool = await loadPool(db, [productId, ...ids]);
  const seed = pool.get(productId);
  if (!seed) return null;
  const first = build(seed, pool, strength, new Set());
  if (!first) return null;
  // A set an admin rejected is not shown to shoppers either.
  const built = build(seed, pool, strength, await decidedKeys(db, [first.key]));
  return built ? (await toProposals(db, [built]))[0] : null;
}

/**
 * Proposals for the admin: around the most bought, then most viewed, then newest products, one
 * per seed, undecided ones only, best first.
 */
export async function listProposals(db: Db, q: { take: number; target_gender?: TargetGender }): Promise<{ proposals: OutfitProposal[] }> {
  const pool = await loadPool(db);
  const popular = await db.productPopularity.findMany({
    where: { product_id: { in: [...pool.keys()] } },
    orderBy: [{ purchase_score: "desc" }, { view_score: "desc" }, { product_id: "asc" }],
    take: MAX_SEEDS,
    select: { product_id: true },
  });
  const seedIds = [...new Set([...popular.map((p) => p.product_id), ...pool.keys()])].slice(0, MAX_SEEDS);
  const wantGenders = q.target_gender && q.target_gender !== "both" ? new Set(gendersFor(q.target_gender)) : null;
  const candidates: Built[] = [];
  const seen = new Set<string>();
  for (const id of seedIds) {
    const seed = pool.get(id)!;
    if (wantGenders && !wantGenders.has(seed.gender)) continue;
    const { strength } = await coStrength(db, id);
    const b = build(seed, pool, strength, new Set());
    if (b && !seen.has(b.key)) {
      seen.add(b.key);
      candidates.push(b);
    }
  }
  const decided = await decidedKeys(db, candidates.map((c) => c.key));
  const open = candidates.filter((c) => !decided.has(c.key)).sort((x, y) => y.score - x.score || x.key.localeCompare(y.key));
  return { proposals: await toProposals(db, open.slice(0, q.take)) };
}

async function assertUndecided(db: Db, key: string) {
  const existing = await db.outfitTrainingData.findFirst({ where: { proposal_key: key }, select: { approved: true } });
  if (existing) throw conflictError(`This proposal was already ${existing.approved ? "accepted" : "rejected"}`);
}

/** What the training data keeps of a decision: the products, their groups and colour harmony. */
async function decisionRecord(db: Db, productIds: string[]) {
  const pool = await loadPool(db, productIds);
  const rows = await db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, featuredImageUrl: true } });
  const image = productIds.map((id) => rows.find((r) => r.id === id)?.featuredImageUrl).find((u) => !!u) ?? "";
  const members = productIds.map((id) => pool.get(id));
  return {
    image,
    attributes: {
      groups: members.map((m) => m?.group ?? null),
      harmony: harmonyOf(members.map((m) => m?.colour ?? null)),
      colours: members.map((m) => m?.colour ?? null),
    },
  };
}

export async function acceptProposal(
  db: Db,
  input: { product_ids: string[]; name?: string; target_gender?: TargetGender; publish: boolean },
  actor: { userId: string | null }
) {
  const key = proposalKey(input.product_ids);
  await assertUndecided(db, key);
  const seed = await db.product.findFirst({ where: { id: input.product_ids[0] }, select: { title: true, target_gender: true } });
  const outfit = await createOutfit(
    db,
    { name: input.name ?? `${seed?.title ?? "New"} look`, target_gender: input.target_gender ?? seed?.target_gender ?? "both", product_ids: input.product_ids },
    { userId: actor.userId, source: "proposed" }
  );
  const record = await decisionRecord(db, outfit.product_ids);
  await db.outfitTrainingData.create({
    data: { outfit_id: outfit.id, image_url: record.image, caption: outfit.name, product_ids: outfit.product_ids, attributes: record.attributes, approved: true, proposal_key: key },
  });
  return input.publish ? setOutfitStatus(db, outfit.id, "published") : getAdminOutfit(db, outfit.id);
}

export async function rejectProposal(db: Db, input: { product_ids: string[]; reason?: string }) {
  await requireProducts(db, input.product_ids);
  const key = proposalKey(input.product_ids);
  await assertUndecided(db, key);
  const record = await decisionRecord(db, input.product_ids);
  await db.outfitTrainingData.create({
    data: { image_url: record.image, caption: input.reason ?? null, product_ids: input.product_ids, attributes: record.attributes, approved: false, proposal_key: key },
  });
  return { ok: true as const };
}
