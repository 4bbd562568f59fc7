/**
 * The demo knowledge base (issue 19): what the shopping assistant cites when a shopper asks how to
 * wash linen, whether a piece runs small, what cashmere is or how returns work. Written for the
 * demo store; the policies match what the app does (30-day returns of unworn items through
 * /account/returns, refunds of what comes back, free shipping from $100). Titles are unique: the
 * recall test set (tests/fixtures/knowledge-questions.json) names the expected entry by title.
 */
import type { PrismaClient } from "@prisma/client";

export interface DemoKnowledgeEntry {
  title: string;
  content: string;
  tags: string[];
  source: string | null;
}

const STORE_POLICY = "Store policy";
const CARE_GUIDE = "Fashion Discovery care guide";
const FIT_GUIDE = "Fashion Discovery fit guide";
const STYLE_GUIDE = "Fashion Discovery style notes";

export const DEMO_KNOWLEDGE: DemoKnowledgeEntry[] = [
  // --- fit and sizing -----------------------------------------------------------------------------
  {
    title: "How to find your size",
    content:
      "Measure yourself over light clothing with a soft tape: chest at its fullest point, waist at the narrowest point above the navel, hips at the widest point, and inside leg from the crotch to the ankle. Compare the numbers with the size chart on the product page, not with the size you usually buy: sizes differ between brands and countries. If you are between two sizes, take the larger one for a relaxed fit and the smaller one for a closer fit. Each store's own size advice is shown on its products, and anything that does not fit can be returned within 30 days.",
    tags: ["fit", "sizing", "size-chart", "measurements"],
    source: FIT_GUIDE,
  },
  {
    title: "Does it run small? Reading the fit of a piece",
    content:
      "Some pieces run small or large compared with a standard size chart. Slim and tailored cuts, rigid denim and pieces cut in Asian sizing usually run small: take one size up if you are between sizes or like room to move. Oversized, relaxed and boxy cuts are meant to be loose: stay with your usual size or take one size down for a neater look. Check the store's size recommendation on the product page (it says when a store runs small, large or true to size) and the garment measurements, which are more reliable than the size label.",
    tags: ["fit", "sizing", "runs-small", "runs-large", "true-to-size"],
    source: FIT_GUIDE,
  },
  {
    title: "Jeans fit guide: waist, inseam and rise",
    content:
      "Jeans are sized by waist and inseam in inches (for example 32/32). Rigid and raw denim feels tight at first and relaxes by about half a size with wear, so choose a snug fit; stretch denim keeps its shape, so choose the size that feels right today. The rise is the distance from the crotch to the waistband: a high rise sits at the natural waist, a mid rise just below it. Slim and skinny jeans run small, straight and relaxed cuts run true to size. Hem length can be taken up by any tailor.",
    tags: ["fit", "sizing", "jeans", "denim", "trousers"],
    source: FIT_GUIDE,
  },
  {
    title: "Shirts and tops fit guide",
    content:
      "A shirt fits when the shoulder seam sits on the edge of your shoulder, the buttons lie flat across the chest without pulling, and the cuff reaches the base of your thumb. Slim-fit shirts are cut closer at the waist and run small; regular and relaxed fits run true to size. Linen and cotton shirts can shrink slightly after the first hot wash, so wash them cool if the fit is already close. For T-shirts, choose by chest width: lay a T-shirt you like flat and compare it with the product's measurements.",
    tags: ["fit", "sizing", "shirts", "tops", "t-shirts"],
    source: FIT_GUIDE,
  },
  {
    title: "Dresses and skirts fit guide",
    content:
      "For dresses, the bust and waist measurements matter most for fitted styles and the shoulders for shift and slip dresses. Wrap dresses adjust at the waist and suit most figures between two sizes. Check the length on the product page: a midi dress falls between the knee and the ankle, a maxi to the ankle. Skirts are sized by the waist; bias-cut silk and satin skirts skim the hips, so size for the hip measurement if it is the larger one.",
    tags: ["fit", "sizing", "dresses", "skirts"],
    source: FIT_GUIDE,
  },
  {
    title: "Knitwear and coats fit guide",
    content:
      "Knitwear is meant to drape: a jumper or cardigan should sit on the hips with some ease across the chest. Chunky knits run large, fine merino and cashmere knits run true to size. Coats and jackets need room for the layer underneath: if you will wear a thick jumper beneath a coat, take your usual size in a relaxed cut or one size up in a tailored one. The sleeve of a coat should cover the shirt cuff.",
    tags: ["fit", "sizing", "knitwear", "sweaters", "coats", "jackets"],
    source: FIT_GUIDE,
  },
  {
    title: "Shoe sizes and width",
    content:
      "Shoe sizes are converted between UK, EU and US sizes on the size chart. Measure your foot in the evening, when it is at its largest, from heel to longest toe, and add about 1 cm for room. Leather shoes stretch slightly in width with wear but never in length; trainers and canvas shoes do not stretch. If you are between two sizes, take the larger size and add an insole.",
    tags: ["fit", "sizing", "shoes", "footwear"],
    source: FIT_GUIDE,
  },

  // --- care ------------------------------------------------------------------------------------------
  {
    title: "Caring for linen",
    content:
      "Wash linen at 30–40 °C on a gentle cycle with a mild detergent, and wash dark linen inside out to keep its colour. Do not use bleach. Linen softens with every wash. Tumble drying can shrink it and sets hard creases: dry it on a line or flat, and take it off while still slightly damp. Iron linen damp on a medium-hot setting, or enjoy its natural creases. Linen can shrink by up to 3% in the first hot wash.",
    tags: ["care", "washing", "linen", "ironing", "shrinking"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for wool and merino",
    content:
      "Wool needs little washing: air it between wears and brush off marks. When it needs a wash, hand wash in cool water with a wool detergent or use the machine's wool cycle at 30 °C; never use hot water or a normal spin, which felt and shrink wool. Do not wring it: roll it in a towel to press out the water and dry it flat, away from a radiator. Fold knitwear rather than hanging it, so it keeps its shape, and store it with cedar to keep moths away. Pilling on merino is normal: remove the bobbles with a fabric comb.",
    tags: ["care", "washing", "wool", "merino", "knitwear", "shrinking", "pilling", "moths"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for denim",
    content:
      "Wash jeans as rarely as you can: inside out, cold (30 °C at most), with a detergent for dark colours, and buttoned up. Raw and rigid denim should wait about six months before its first wash so the fades follow the way you wear it; a soak in cold water sets the indigo. Hang denim to dry: the tumble dryer shrinks it and wears the cotton. Indigo can rub off on light fabrics and sofas during the first weeks: wash new dark jeans on their own the first time.",
    tags: ["care", "washing", "denim", "jeans", "indigo", "colour-fading"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for silk",
    content:
      "Silk is best dry cleaned, or hand washed in cold water with a gentle detergent for silk and wool. Do not soak it or wring it: press out the water in a towel and dry it flat out of the sun, which fades and weakens silk. Iron silk inside out on a low setting while slightly damp, with a cloth between the iron and the fabric. Keep perfume and deodorant off silk: they stain it. Water can leave marks on some silks: test a hidden spot first.",
    tags: ["care", "washing", "silk", "dry-clean", "ironing", "stains"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for cashmere",
    content:
      "Hand wash cashmere in cool water with a little wool or cashmere shampoo, or use the machine's hand-wash cycle at 30 °C with a low spin. Never put cashmere in the tumble dryer. Squeeze out the water gently, roll it in a towel, and dry it flat, reshaping it while damp. Pilling is normal in the first wears where the knit rubs: remove the pills with a cashmere comb once it has been worn a few times. Fold cashmere and store it in a breathable bag with cedar against moths.",
    tags: ["care", "washing", "cashmere", "knitwear", "pilling", "moths"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for cotton",
    content:
      "Most cotton can be machine washed at 30–40 °C; white cotton can go to 60 °C. Wash colours with similar colours, and turn printed T-shirts inside out to protect the print. Cotton can shrink in a hot wash or a hot tumble dryer, especially the first time: dry it on a low setting or on a line. Iron cotton shirts while slightly damp on a hot setting.",
    tags: ["care", "washing", "cotton", "t-shirts", "shirts", "shrinking"],
    source: CARE_GUIDE,
  },
  {
    title: "Caring for leather and suede",
    content:
      "Wipe smooth leather with a damp cloth and feed it with a leather conditioner every few months so it does not dry and crack. Let wet leather dry naturally at room temperature, never on a radiator. Protect suede with a water-repellent spray before the first wear and brush it with a suede brush to lift the nap; a suede eraser removes most marks. Store leather jackets on a wide hanger in a breathable cover, never in plastic.",
    tags: ["care", "leather", "suede", "jackets", "shoes"],
    source: CARE_GUIDE,
  },
  {
    title: "Removing stains",
    content:
      "Treat a stain as soon as you can: blot it, do not rub. Rinse from the back of the fabric with cold water; hot water sets protein stains such as blood, egg and sweat. Use a little washing-up liquid on grease and oil, and a stain remover or a paste of oxygen bleach on wine and coffee (never chlorine bleach on colours, wool or silk). Check the stain is gone before drying: the heat of a dryer fixes it. Delicate fabrics such as silk, wool and cashmere are best taken to a dry cleaner.",
    tags: ["care", "stains", "washing"],
    source: CARE_GUIDE,
  },
  {
    title: "Reading care labels",
    content:
      "The tub symbol is washing: the number is the highest temperature and lines under it mean a gentler cycle; a hand in the tub means hand wash only. The triangle is bleach (crossed out: no bleach). The square is drying: a circle inside means tumble drying, with dots for the heat. The iron's dots give its heat: one dot is low, for silk and synthetics, three dots high, for linen and cotton. The circle alone is dry cleaning. A cross over any symbol means do not.",
    tags: ["care", "care-labels", "washing", "ironing"],
    source: CARE_GUIDE,
  },

  // --- materials -------------------------------------------------------------------------------------
  {
    title: "What is linen?",
    content:
      "Linen is woven from the fibres of the flax plant. It is strong, absorbs moisture and dries fast, which keeps you cool in heat: the classic summer fabric. It creases easily, which is part of its relaxed look, and it softens with every wash. Flax needs little water or pesticide to grow, so linen is one of the more sustainable natural fibres. Linen blends with cotton or viscose crease less.",
    tags: ["materials", "linen", "summer", "breathable", "sustainability"],
    source: null,
  },
  {
    title: "Wool and merino explained",
    content:
      "Wool is the fleece of sheep. Merino comes from merino sheep and has much finer fibres, so it is soft enough to wear next to the skin without itching. Wool regulates temperature: it keeps you warm in the cold and breathes in the warmth, absorbs moisture without feeling wet, resists odour and recovers its shape, so it needs little washing. Lambswool is from a sheep's first shearing and is softer still.",
    tags: ["materials", "wool", "merino", "knitwear", "warm", "breathable"],
    source: null,
  },
  {
    title: "What is cashmere and why is it expensive?",
    content:
      "Cashmere is the soft undercoat of cashmere goats, combed out in spring. A goat gives only about 150 grams a year, which is why cashmere costs more than wool. Its fibres are very fine, which makes it light, soft and much warmer than wool of the same weight. Two-ply cashmere is thicker and more durable than single-ply. Good cashmere pills a little at first and then less: quality shows in long fibres and a dense knit.",
    tags: ["materials", "cashmere", "knitwear", "warm", "luxury"],
    source: null,
  },
  {
    title: "Denim: raw, rigid, stretch and selvedge",
    content:
      "Denim is a cotton twill woven with an indigo-dyed warp and a white weft, which is why jeans are blue outside and pale inside. Raw denim is not washed after dyeing: it is stiff at first and fades to your wear. Rigid denim is pure cotton without stretch; stretch denim has 1–3% elastane for comfort and keeps its shape. Selvedge denim is woven on narrow shuttle looms and has a clean, self-finished edge along the outseam. Heavier denim (over 14 oz) lasts longer and takes longer to break in.",
    tags: ["materials", "denim", "jeans", "selvedge", "raw-denim", "stretch"],
    source: null,
  },
  {
    title: "Silk explained",
    content:
      "Silk is the fibre of the silkworm's cocoon. It is light, smooth and strong, with a natural sheen, and it keeps you cool in summer and warm in winter. Mulberry silk is the finest. Its weight is given in momme: 16–19 momme for blouses and scarves, 22 momme and more for dresses that drape and last. Satin is a weave, not a fibre: silk satin is silk, polyester satin is not.",
    tags: ["materials", "silk", "satin", "luxury"],
    source: null,
  },
  {
    title: "Cotton types: organic, pima, poplin and jersey",
    content:
      "Cotton is a soft, breathable plant fibre and the most worn fabric there is. Pima and Egyptian cottons have long fibres, which make smoother, stronger fabric that pills less. Organic cotton is grown without synthetic pesticides or fertilisers. Poplin and oxford are woven cottons for shirts; jersey is a knit, stretchy and soft, used for T-shirts; French terry is the looped knit of sweatshirts.",
    tags: ["materials", "cotton", "organic-cotton", "poplin", "jersey", "t-shirts"],
    source: null,
  },
  {
    title: "Synthetic and semi-synthetic fibres",
    content:
      "Polyester and nylon are made from oil: durable, quick-drying and crease-resistant, but they breathe less than natural fibres and shed microfibres in the wash (a washing bag catches them). Viscose, modal and lyocell (Tencel) are made from wood pulp: soft, drapey and breathable; lyocell is made in a closed loop that recovers its solvent. Elastane (spandex, Lycra) adds stretch in small amounts.",
    tags: ["materials", "polyester", "nylon", "viscose", "lyocell", "elastane", "sustainability"],
    source: null,
  },

  // --- style guides ----------------------------------------------------------------------------------
  {
    title: "Building a capsule wardrobe",
    content:
      "A capsule wardrobe is a small set of pieces that all go together. Start with neutral basics in one colour family (navy, grey, black or camel, with white), then add two or three accent colours. A practical core: two pairs of trousers or jeans, a skirt or shorts, five tops, two knits, one blazer, one coat and two pairs of shoes. Choose quality fabrics and simple cuts, and add a new piece only when it works with three you already own.",
    tags: ["style", "capsule-wardrobe", "basics", "outfits"],
    source: STYLE_GUIDE,
  },
  {
    title: "Dressing for a summer wedding",
    content:
      "For a summer wedding, choose breathable fabrics: linen, cotton or silk. Men can wear a light suit in linen or a linen blend in stone, sand or light blue, with a white or pale shirt and loafers; a tie unless the invitation says casual. Women can choose a midi dress in a print or a soft colour, a jumpsuit or a silk skirt with a blouse. Avoid white and ivory, which are the bride's. Bring a light layer for the evening.",
    tags: ["style", "occasion", "wedding", "summer", "linen", "silk", "suits", "dresses"],
    source: STYLE_GUIDE,
  },
  {
    title: "Colour combinations that work",
    content:
      "Navy goes with almost everything: white, grey, camel, olive and pink. Pair one bold colour with neutrals rather than two bold ones. Colours next to each other on the colour wheel (blue and green, red and orange) look calm together; opposite colours (blue and orange, purple and yellow) make contrast. Tonal outfits in shades of one colour look put together. Match leathers: a brown belt with brown shoes.",
    tags: ["style", "colours", "outfits", "matching"],
    source: STYLE_GUIDE,
  },
  {
    title: "Smart casual explained",
    content:
      "Smart casual sits between business wear and weekend clothes. For men: chinos or dark jeans, an oxford shirt or a fine knit, an unstructured blazer, and loafers, desert boots or clean leather trainers. For women: tailored trousers or a midi skirt, a blouse or a fine knit, a blazer or a trench coat, and loafers or ankle boots. Avoid ripped jeans, sportswear and flip-flops.",
    tags: ["style", "dress-code", "smart-casual", "office", "blazers"],
    source: STYLE_GUIDE,
  },
  {
    title: "Layering for autumn and winter",
    content:
      "Layer thin to thick: a base layer that breathes (merino or cotton), a mid layer that warms (a knit, a flannel shirt or fleece), and an outer layer that protects (a wool coat, a parka or a trench). Several thin layers are warmer than one thick one and let you adapt indoors. Keep the slimmest layers closest to the body and choose a coat with room for a knit underneath.",
    tags: ["style", "layering", "winter", "autumn", "coats", "knitwear", "wool"],
    source: STYLE_GUIDE,
  },

  // --- store policies ----------------------------------------------------------------------------------
  {
    title: "Returns and refunds policy",
    content:
      "You can return unworn items with their tags within 30 days of delivery. Start a return in My account › Returns, choose the items and the reason; you get a return label by email. Once the store receives and checks the items, the refund goes back to your original payment method within 5–10 working days. Swimwear, underwear and earrings cannot be returned for hygiene reasons unless faulty. Faulty items can be returned at any time within a year.",
    tags: ["policy", "returns", "refunds", "exchanges"],
    source: STORE_POLICY,
  },
  {
    title: "Exchanges",
    content:
      "To exchange an item for another size or colour, return it in My account › Returns and place a new order for the size you want: that way the new size is reserved at once instead of waiting for the return to arrive. The refund for the returned item follows when the store receives it.",
    tags: ["policy", "exchanges", "returns", "sizing"],
    source: STORE_POLICY,
  },
  {
    title: "Shipping and delivery",
    content:
      "Orders are packed within 1–2 working days. Standard delivery takes 3–5 working days and is free on orders over $100 (otherwise $6.95); express delivery takes 1–2 working days for $14.95. We ship to the United States, Canada, the United Kingdom, the European Union and Australia; international orders may owe import duties on arrival. Items from different stores can arrive in separate parcels. You get a tracking number by email when each parcel ships, and can follow it in My orders.",
    tags: ["policy", "shipping", "delivery", "international", "tracking"],
    source: STORE_POLICY,
  },
  {
    title: "Payment and security",
    content:
      "We accept the major credit and debit cards, Apple Pay, Google Pay and Shop Pay through Shopify's secure checkout. Card details are handled by the payment provider and never stored by the store. Your card is charged when you place the order; a cancelled order is refunded in full.",
    tags: ["policy", "payment", "checkout", "security"],
    source: STORE_POLICY,
  },
  {
    title: "Cancelling or changing an order",
    content:
      "You can cancel an order or change its address until it is packed, usually within a few hours: contact us with your order number. Once an order has shipped it cannot be changed, but you can return it within 30 days of delivery.",
    tags: ["policy", "orders", "cancellation"],
    source: STORE_POLICY,
  },
];

/** Seeds the demo knowledge base into an empty table; returns how many entries it wrote. */
export async function seedKnowledgeDemo(db: Pick<PrismaClient, "knowledgeEntry">): Promise<number> {
  if ((await db.knowledgeEntry.count()) > 0) return 0;
  const base = Date.UTC(2026, 9, 1);
  // Spread over time in the order above, so "newest first" is stable.
  const rows = DEMO_KNOWLEDGE.map((e, i) => ({ ...e, created_at: new Date(base + i * 60_000), updated_at: new Date(base + i * 60_000) }));
  await db.knowledgeEntry.createMany({ data: rows });
  return rows.length;
}
