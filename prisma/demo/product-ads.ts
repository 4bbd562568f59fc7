/**
 * The product ads demo (issue 18, docs/product-ads.md): the ad features catalogue, and for the demo
 * vendor (vendor@demo.local's Northwind Atelier) and Maison Lumière, ad requests open and completed
 * with ads in every status, each with its timeline (created, completed, feedback thread, approved,
 * published, paused) authored by the demo admin and the vendor's user, creatives from the
 * products' own images, and copy that fits the products.
 *
 * Dates are days before `anchor` (a YYYY-MM-DD day). The full seed passes BASE_DAY before the demo's
 * dates are moved to the present (./shift-dates.ts moves these rows with the catalogue's); a
 * database seeded before ads existed gets them once, dated before its today
 * (ensureProductAdsDemo). Rows have fixed ids (demoUuid), so writing them again replaces them.
 *
 * LIVE and INACTIVE ads carry local ads-platform ids (`local-ad-<id>`, as the local adapter hands
 * out) and a published_at: the metrics sync reads them (DEMO_AD_IDS_TO_SYNC, or by status).
 */
import { Prisma, type PrismaClient, type ProductAdStatus } from "@prisma/client";
import { DEMO_EMAIL_DOMAIN } from "./generate";
import { demoUuid } from "./prng";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The catalogue (docs/product-ads.md "Demo catalogue"); prices per ad, USD. */
export const DEMO_AD_FEATURES = [
  { code: "format.single_image", kind: "format", name: "Single image", description: "One square (1:1) image with headline and text: the classic feed ad.", price: "0.00", sort_order: 1 },
  { code: "format.carousel", kind: "format", name: "Carousel", description: "Two to ten swipeable cards, one product or look per card.", price: "25.00", sort_order: 2 },
  { code: "format.story", kind: "format", name: "Story (9:16)", description: "Full-screen vertical creative for Stories and Reels.", price: "20.00", sort_order: 3 },
  { code: "placement.facebook_feed", kind: "placement", name: "Facebook feed", description: "Shown between posts in the Facebook feed.", price: null, sort_order: 1 },
  { code: "placement.instagram_feed", kind: "placement", name: "Instagram feed", description: "Shown between posts in the Instagram feed.", price: null, sort_order: 2 },
  { code: "placement.instagram_stories", kind: "placement", name: "Instagram Stories", description: "Shown between Instagram Stories (best with the Story format).", price: "5.00", sort_order: 3 },
  { code: "extra.ai_background", kind: "extra", name: "AI background", description: "The product photographed on a generated scene that fits the brief.", price: "15.00", sort_order: 1 },
  { code: "extra.on_model", kind: "extra", name: "On a model", description: "The product tried on a public clone (virtual try-on) for a worn look.", price: "35.00", sort_order: 2 },
  { code: "extra.copy_variants", kind: "extra", name: "Copy variants", description: "Three headline and primary-text variants to test against each other.", price: "10.00", sort_order: 3 },
] as const;

type Actor = "admin" | "vendor";
interface EventSpec {
  kind: string;
  from: ProductAdStatus | null;
  to: ProductAdStatus | null;
  by: Actor;
  text?: string;
  /** Days before the anchor (fractions allowed). */
  daysAgo: number;
}
interface AdSpec {
  key: string;
  status: ProductAdStatus;
  /** Index into the request's products. */
  product: number;
  cta: "SHOP_NOW" | "LEARN_MORE" | "SIGN_UP";
  events: EventSpec[];
}
interface RequestSpec {
  key: string;
  status: "open" | "completed";
  daysAgo: number;
  completedDaysAgo?: number;
  /** Indexes into the vendor's advertisable products. */
  products: number[];
  features: string[];
  brief: string;
  budget: string;
  startIn?: number;
  runDays?: number;
  images: number;
  ads: AdSpec[];
}

// The moves of each status's story, oldest first (docs/product-ads.md, table of moves).
const created = (d: number): EventSpec => ({ kind: "created", from: null, to: "PENDING", by: "admin", daysAgo: d });
const complete = (d: number, from: ProductAdStatus = "PENDING", text?: string): EventSpec => ({ kind: "complete", from, to: "COMPLETED", by: "admin", daysAgo: d, text });
const feedback = (d: number, text: string): EventSpec => ({ kind: "feedback", from: "COMPLETED", to: "FEEDBACK_PENDING", by: "vendor", daysAgo: d, text });
const approve = (d: number, text?: string): EventSpec => ({ kind: "approve", from: "COMPLETED", to: "APPROVED", by: "vendor", daysAgo: d, text });
const publish = (d: number, from: ProductAdStatus = "APPROVED"): EventSpec => ({ kind: "publish", from, to: "LIVE", by: "admin", daysAgo: d });
const unpublish = (d: number, text: string): EventSpec => ({ kind: "unpublish", from: "LIVE", to: "INACTIVE", by: "vendor", daysAgo: d, text });
const edited = (d: number, text: string): EventSpec => ({ kind: "edited", from: null, to: null, by: "admin", daysAgo: d, text });

function requestsFor(vendorName: string): RequestSpec[] {
  return [
    {
      key: "season",
      status: "completed",
      daysAgo: 46,
      completedDaysAgo: 34,
      products: [0, 1],
      features: ["format.single_image", "format.carousel", "placement.facebook_feed", "placement.instagram_feed", "extra.ai_background"],
      brief: `Autumn launch for ${vendorName}: reach 25–44 year olds who buy considered basics. Message: made to last, fair price. Offer: free shipping over $120 during launch weeks.`,
      budget: "40.00",
      startIn: -32,
      runDays: 60,
      images: 2,
      ads: [
        {
          key: "live",
          status: "LIVE",
          product: 0,
          cta: "SHOP_NOW",
          events: [
            created(44),
            complete(42),
            feedback(41.5, "Love the scene, but the colour looks warmer than the real fabric. Could we use the second photo instead?"),
            complete(39, "FEEDBACK_PENDING", "Swapped to the second photo and cooled the background to match the fabric."),
            approve(38.6, "Perfect, thank you!"),
            publish(32),
          ],
        },
        {
          key: "inactive",
          status: "INACTIVE",
          product: 1,
          cta: "SHOP_NOW",
          events: [created(44), complete(41), approve(40), publish(32), unpublish(9, "Sold through most sizes: pausing until the restock lands.")],
        },
      ],
    },
    {
      key: "weekend",
      status: "open",
      daysAgo: 12,
      products: [2, 3, 4],
      features: ["format.carousel", "format.story", "placement.instagram_feed", "placement.instagram_stories", "extra.on_model", "extra.copy_variants"],
      brief: `Weekend edit: three pieces that style together. Audience: city shoppers who follow ${vendorName} on Instagram. Show them worn, not flat. Offer: 10% off the second piece.`,
      budget: "25.00",
      startIn: 3,
      runDays: 21,
      images: 3,
      ads: [
        { key: "approved", status: "APPROVED", product: 0, cta: "SHOP_NOW", events: [created(10), complete(7), approve(5.2, "Good to go once the campaign starts.")] },
        {
          key: "feedback",
          status: "FEEDBACK_PENDING",
          product: 1,
          cta: "SHOP_NOW",
          events: [
            created(10),
            complete(6),
            feedback(5.5, "The headline undersells it: can we mention the fabric?"),
            complete(3, "FEEDBACK_PENDING", "New headline names the fabric; text shortened."),
            feedback(1.2, "Better! Last thing: please crop so the whole hem shows."),
          ],
        },
        { key: "completed", status: "COMPLETED", product: 2, cta: "LEARN_MORE", events: [created(9), edited(4, "Creatives picked from the on-model candidates."), complete(2)] },
      ],
    },
    {
      key: "gift",
      status: "open",
      daysAgo: 3,
      products: [5],
      features: ["format.single_image", "placement.facebook_feed", "extra.copy_variants"],
      brief: "Gift guide: one hero piece for people shopping for someone else. Warm, personal tone; mention gift wrapping and easy returns.",
      budget: "15.00",
      images: 1,
      ads: [{ key: "pending", status: "PENDING", product: 0, cta: "SHOP_NOW", events: [created(1.5)] }],
    },
    {
      key: "new",
      status: "open",
      daysAgo: 0.6,
      products: [6, 7],
      features: ["format.single_image", "placement.instagram_feed"],
      brief: "New arrivals: a simple feed ad for the two newest pieces, for people who already follow us.",
      budget: "10.00",
      images: 0,
      ads: [],
    },
  ];
}

const DEMO_VENDORS = [
  { handle: "northwind-atelier", user: `vendor@${DEMO_EMAIL_DOMAIN}` },
  { handle: "maison-lumiere", user: null },
] as const;

const adId = (vendor: string, req: string, ad: string) => demoUuid("product-ad", `${vendor}:${req}:${ad}`);

/** The LIVE and INACTIVE demo ads (the metrics sync's demo rows). */
export const DEMO_AD_IDS_TO_SYNC: string[] = DEMO_VENDORS.flatMap((v) =>
  requestsFor("").flatMap((r) => r.ads.filter((a) => a.status === "LIVE" || a.status === "INACTIVE").map((a) => adId(v.handle, r.key, a.key))),
);

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max - 12)).trimEnd()}…`;
}

function copyFor(p: { title: string; productType: string }, vendorName: string, variant: number): { headline: string; text: string } {
  const type = p.productType.toLowerCase() || "piece";
  const headlines = [`${p.title}`, `Meet the ${p.title}`, `The ${type} you'll keep`, `${p.title}, made to last`];
  const texts = [
    `${p.title} from ${vendorName}: honest fabric, a fit that works every day, and details you notice up close. Free returns within 30 days.`,
    `Our ${type} for the season ahead. ${p.title} is cut to layer, built to wear for years, and priced without the markup.`,
    `Worn, washed, worn again: the ${p.title} only gets better. See it styled and find your size.`,
  ];
  return { headline: clip(headlines[variant % headlines.length]!, 40), text: clip(texts[variant % texts.length]!, 500) };
}

export interface ProductAdsDemoReport {
  features: number;
  requests: number;
  ads: number;
  events: number;
}

/**
 * Writes the catalogue (upserted by code) and the two vendors' requests and ads (replaced by id).
 * Needs the catalogue, the demo users and vendors written; skips a vendor missing from the database.
 */
export async function seedProductAdsDemo(db: PrismaClient, opts: { anchor: string }): Promise<ProductAdsDemoReport> {
  const anchor = Date.parse(`${opts.anchor}T00:00:00Z`);
  if (Number.isNaN(anchor)) throw new Error(`seedProductAdsDemo: "${opts.anchor}" is not a YYYY-MM-DD day`);
  // Times of day vary by a few hours so the timelines do not all tick at midnight.
  const at = (daysAgo: number, hour = 10) => new Date(anchor - daysAgo * DAY_MS + hour * HOUR_MS - 24 * HOUR_MS);

  const featureIds = new Map<string, string>();
  for (const f of DEMO_AD_FEATURES) {
    const data = { kind: f.kind, name: f.name, description: f.description, price: f.price === null ? null : new Prisma.Decimal(f.price), currencyCode: "USD", sort_order: f.sort_order };
    const row = await db.productAdFeature.upsert({ where: { code: f.code }, create: { id: demoUuid("ad-feature", f.code), code: f.code, active: true, ...data }, update: data, select: { id: true } });
    featureIds.set(f.code, row.id);
  }

  const admin = await db.user.findFirst({ where: { email: `admin@${DEMO_EMAIL_DOMAIN}` }, select: { id: true } });
  const report: ProductAdsDemoReport = { features: DEMO_AD_FEATURES.length, requests: 0, ads: 0, events: 0 };
  for (const dv of DEMO_VENDORS) {
    const vendor = await db.vendor.findUnique({ where: { handle: dv.handle }, select: { id: true, name: true } });
    if (!vendor) continue;
    const vendorUser = dv.user ? await db.user.findFirst({ where: { email: dv.user, vendor_id: vendor.id }, select: { id: true } }) : null;
    // Without a vendor user (Maison Lumière has none in the demo), the team records the vendor's
    // answers, as it does when a vendor replies by email.
    const author = (by: Actor) => (by === "vendor" ? (vendorUser ?? admin)?.id : admin?.id) ?? null;
    const products = await db.product.findMany({
      where: { vendor_id: vendor.id, status: "active", images: { some: {} } },
      select: { id: true, title: true, productType: true, currencyCode: true, images: { select: { url: true, width: true, height: true }, orderBy: { position: "asc" }, take: 4 } },
      orderBy: { id: "asc" },
      take: 8,
    });
    if (products.length === 0) continue;
    const product = (i: number) => products[i % products.length]!;

    const specs = requestsFor(vendor.name);
    const requestIds = specs.map((r) => demoUuid("ad-request", `${dv.handle}:${r.key}`));
    const uploadIds = specs.flatMap((r) => Array.from({ length: 3 }, (_, i) => demoUuid("ad-upload", `${dv.handle}:${r.key}:${i}`)));
    // Replace what an earlier run wrote (the full seed's wipe has emptied them already).
    await db.productAd.deleteMany({ where: { request_id: { in: requestIds } } });
    await db.productAdRequest.deleteMany({ where: { id: { in: requestIds } } });
    await db.uploadedImage.deleteMany({ where: { id: { in: uploadIds } } });

    for (const [ri, spec] of specs.entries()) {
      const requestId = requestIds[ri]!;
      const reqProducts = spec.products.map(product);
      const uniqueProducts = [...new Map(reqProducts.map((p) => [p.id, p])).values()];
      // The vendor's own photos: the products' shots it uploaded with the request.
      const uploads = Array.from({ length: spec.images }, (_, i) => {
        const p = uniqueProducts[i % uniqueProducts.length]!;
        const img = p.images[(i + 1) % p.images.length] ?? p.images[0]!;
        return {
          id: demoUuid("ad-upload", `${dv.handle}:${spec.key}:${i}`),
          url: img.url,
          key: `images/demo/ad-uploads/${dv.handle}-${spec.key}-${i}.jpg`,
          width: img.width,
          height: img.height,
          content_type: "image/jpeg",
          size_bytes: 180_000 + i * 7_000,
          user_id: author("vendor"),
          purpose: "ad_request",
          created_at: at(spec.daysAgo, 9),
        };
      });
      if (uploads.length) await db.uploadedImage.createMany({ data: uploads });
      const start = spec.startIn === undefined ? null : new Date(anchor + spec.startIn * DAY_MS);
      await db.productAdRequest.create({
        data: {
          id: requestId,
          vendor_id: vendor.id,
          product_id: uniqueProducts[0]!.id,
          product_ids: uniqueProducts.map((p) => p.id),
          uploaded_image_ids: uploads.map((u) => u.id),
          status: spec.status,
          notes: spec.brief,
          daily_budget: new Prisma.Decimal(spec.budget),
          currencyCode: uniqueProducts[0]!.currencyCode,
          start_date: start,
          end_date: start && spec.runDays ? new Date(start.getTime() + spec.runDays * DAY_MS) : null,
          created_by_id: author("vendor"),
          completed_at: spec.completedDaysAgo === undefined ? null : at(spec.completedDaysAgo, 16),
          created_at: at(spec.daysAgo, 9),
          updated_at: at(spec.completedDaysAgo ?? spec.daysAgo, 16),
          features: { create: spec.features.map((code) => ({ feature_id: featureIds.get(code)!, created_at: at(spec.daysAgo, 9) })) },
        },
      });
      report.requests++;

      for (const [ai, ad] of spec.ads.entries()) {
        const p = uniqueProducts[ad.product % uniqueProducts.length]!;
        const id = adId(dv.handle, spec.key, ad.key);
        const copy = copyFor(p, vendor.name, ri + ai);
        const published = ad.events.filter((e) => e.kind === "publish").at(-1);
        const live = ad.status === "LIVE" || ad.status === "INACTIVE";
        const last = ad.events[ad.events.length - 1]!;
        const feedbackText = [...ad.events].reverse().find((e) => e.kind === "feedback")?.text ?? null;
        const images = [...uploads.filter((u) => p.images.some((i) => i.url === u.url)).map((u) => u.url), ...p.images.map((i) => i.url)];
        await db.productAd.create({
          data: {
            id,
            status: ad.status,
            product_id: p.id,
            vendor_id: vendor.id,
            request_id: requestId,
            title: ad.status === "PENDING" ? "" : copy.headline,
            body: ad.status === "PENDING" ? null : copy.text,
            media_urls: ad.status === "PENDING" ? [] : [...new Set(images)].slice(0, spec.features.includes("format.carousel") ? 3 : 1),
            feedback: ad.status === "FEEDBACK_PENDING" ? feedbackText : null,
            call_to_action: ad.cta,
            daily_budget: new Prisma.Decimal(spec.budget),
            currencyCode: p.currencyCode,
            created_by_id: admin?.id ?? null,
            ...(live ? { meta_campaign_id: `local-campaign-${id}`, meta_adset_id: `local-adset-${id}`, meta_creative_id: `local-creative-${id}`, meta_ad_id: `local-ad-${id}` } : {}),
            published_at: live && published ? at(published.daysAgo, 11) : null,
            created_at: at(ad.events[0]!.daysAgo, 10),
            updated_at: at(last.daysAgo, 14),
          },
        });
        await db.productAdEvent.createMany({
          data: ad.events.map((e, ei) => ({
            id: demoUuid("product-ad-event", `${id}:${ei}`),
            ad_id: id,
            kind: e.kind,
            from_status: e.from,
            to_status: e.to,
            author_id: author(e.by),
            text: e.text ?? null,
            created_at: at(e.daysAgo, e.by === "vendor" ? 15 : 11 + (ei % 3)),
          })),
        });
        report.ads++;
        report.events += ad.events.length;
      }
    }
  }
  return report;
}

/**
 * A database seeded before the ads existed gets the ads demo once (no ad feature yet), dated
 * before `today`. Returns whether it wrote it.
 */
export async function ensureProductAdsDemo(db: PrismaClient, opts: { today: string }): Promise<boolean> {
  if ((await db.productAdFeature.count()) > 0) return false;
  if ((await db.vendor.count({ where: { handle: { in: DEMO_VENDORS.map((v) => v.handle) } } })) === 0) return false;
  await seedProductAdsDemo(db, { anchor: opts.today });
  return true;
}
