/**
 * The demo's published looks: for each gender, the recommendation engine's three best proposals
 * (app/services/outfits/proposals.server.ts), accepted and published as an admin would from
 * Admin → Outfits → Proposals, so the storefront's "Complete the look" and the home feed's look
 * insertions have curated looks from the first start, and the acceptances are outfit training data.
 */
import type { PrismaClient } from "@prisma/client";
import { acceptProposal, listProposals } from "../../app/services/outfits/proposals.server";

export const DEMO_LOOKS_PER_GENDER = 3;

/**
 * Seeds the looks once: not when any curated or proposed look exists or any proposal was decided
 * (an admin who has worked on looks does not get the demo's back). Needs the recommendation
 * aggregates (co-purchase, popularity) in place. Returns the number of looks made.
 */
export async function seedDemoOutfits(db: PrismaClient): Promise<number> {
  const [looks, decisions] = await Promise.all([db.outfit.count({ where: { source: { in: ["curated", "proposed"] } } }), db.outfitTrainingData.count()]);
  if (looks > 0 || decisions > 0) return 0;
  let made = 0;
  for (const gender of ["womenswear", "menswear"] as const) {
    const { proposals } = await listProposals(db, { take: DEMO_LOOKS_PER_GENDER, target_gender: gender });
    for (const p of proposals) {
      await acceptProposal(db, { product_ids: p.product_ids, name: p.name, target_gender: p.target_gender, publish: true }, { userId: null });
      made++;
    }
  }
  return made;
}
