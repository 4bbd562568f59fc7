/**
 * Fashion words the text search knows without asking the catalogue: kept in the distilled word
 * vectors (scripts/distill-word-vectors.ts), and synonym groups pulled together there
 * (retrofitting), so "jumper" lands near "sweater" and "trainers" near "sneakers".
 */

/** Synonym groups (same garment, different English). Only true synonyms: a group's words are pulled together. */
export const FASHION_SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ["sweater", "jumper", "pullover"],
  ["sweaters", "jumpers", "pullovers"],
  ["trousers", "pants", "slacks"],
  ["trainers", "sneakers"],
  ["tee", "t-shirt", "tshirt"],
  ["tees", "t-shirts", "tshirts"],
  ["hoodie", "hoody", "sweatshirt"],
  ["hoodies", "sweatshirts"],
  ["joggers", "sweatpants", "trackpants"],
  ["parka", "anorak"],
  ["overcoat", "topcoat"],
  ["handbag", "purse"],
  ["braces", "suspenders"],
  ["dress", "frock"],
  ["beanie", "toque"],
  ["tracksuit", "sweatsuit"],
  ["wellies", "wellingtons"],
  ["knitwear", "knits"],
];

export const FASHION_TERMS: readonly string[] = (
  // garments
  "shirt shirts overshirt blouse blouses top tops tee tees t-shirt t-shirts tank camisole cami polo polos henley " +
  "sweater sweaters jumper jumpers pullover cardigan cardigans knit knits knitwear turtleneck rollneck crewneck vneck " +
  "hoodie hoodies sweatshirt sweatshirts fleece gilet vest waistcoat jacket jackets bomber harrington blazer blazers " +
  "coat coats overcoat trench parka anorak puffer raincoat mac peacoat duffle windbreaker shacket " +
  "jeans denim trousers pants chinos chino slacks joggers leggings culottes shorts bermuda skirt skirts midi maxi mini " +
  "dress dresses gown jumpsuit playsuit romper dungarees overalls suit suits tuxedo kimono kaftan poncho cape " +
  "shoes sneakers trainers boots loafers sandals heels brogues derbies mules espadrilles slippers " +
  "bag bags tote handbag backpack clutch wallet belt hat cap beanie scarf gloves socks tie bowtie sunglasses jewellery jewelry " +
  // materials
  "cotton linen wool merino cashmere silk satin velvet corduroy tweed flannel fleece jersey denim chambray poplin oxford " +
  "seersucker canvas twill suede leather nylon polyester viscose rayon lyocell tencel modal acrylic elastane spandex " +
  "lambswool alpaca mohair crepe chiffon lace broderie gabardine hopsack boucle sherpa terry loopback organic recycled " +
  // colours
  "black white grey gray charcoal navy blue cobalt indigo teal turquoise green olive khaki sage forest emerald mint " +
  "red burgundy maroon wine crimson pink blush rose coral orange rust terracotta yellow mustard gold beige cream ecru " +
  "ivory stone sand camel tan brown chocolate taupe purple lilac lavender violet plum silver multicolour multicolor " +
  // fits, details, patterns
  "relaxed slim oversized boxy cropped tailored fitted regular straight tapered wide-leg bootcut skinny flared pleated " +
  "high-waisted high-rise longline double-breasted single-breasted belted wrap tiered ribbed chunky lightweight heavyweight " +
  "padded quilted hooded collared sleeveless short-sleeved long-sleeved striped checked plaid tartan gingham floral " +
  "polka dot paisley embroidered printed plain " +
  // occasions and styles
  "casual formal smart workwear streetwear minimalist romantic outdoor vintage classic summer winter autumn spring " +
  "wedding party office holiday beach evening everyday weekend lounge loungewear sportswear activewear athleisure " +
  "menswear womenswear unisex mens womens men women ladies gents"
)
  .split(/\s+/)
  .filter(Boolean);
