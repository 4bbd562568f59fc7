/**
 * Vocabulary of the demo catalogue: vendors and stores, garment types with their titles, sizes,
 * prices and colours, materials, styles, collections, people's names and review texts.
 */
import type { GarmentKind, Pattern } from "./garment-svg";

export type Gender = "menswear" | "womenswear" | "both";

// ---------------------------------------------------------------------------------------------
// Colours

export interface Colour {
  name: string;
  hex: string;
  /** Neutral colours make a product "minimalist". */
  neutral?: boolean;
  /** Soft colours make dresses and skirts "romantic". */
  soft?: boolean;
  earthy?: boolean;
  denim?: boolean;
}

export const COLOURS: Record<string, Colour> = {
  Black: { name: "Black", hex: "#1c1c1e", neutral: true },
  "Off White": { name: "Off White", hex: "#f2efe8", neutral: true },
  Ecru: { name: "Ecru", hex: "#e6dcc6", neutral: true },
  Navy: { name: "Navy", hex: "#1f2a44", neutral: true },
  Charcoal: { name: "Charcoal", hex: "#3a3d42", neutral: true },
  "Heather Grey": { name: "Heather Grey", hex: "#9b9ea3", neutral: true },
  Stone: { name: "Stone", hex: "#c8bfae", neutral: true },
  Sand: { name: "Sand", hex: "#d6c29f", neutral: true, earthy: true },
  Camel: { name: "Camel", hex: "#b5854f", neutral: true, earthy: true },
  Khaki: { name: "Khaki", hex: "#a39a6b", earthy: true },
  Olive: { name: "Olive", hex: "#5e6b3a", earthy: true },
  "Forest Green": { name: "Forest Green", hex: "#2f4a36", earthy: true },
  Sage: { name: "Sage", hex: "#a3b18a", soft: true },
  Burgundy: { name: "Burgundy", hex: "#6d1f2f", earthy: true },
  Rust: { name: "Rust", hex: "#a14a2a", earthy: true },
  Terracotta: { name: "Terracotta", hex: "#c0643f", earthy: true },
  Mustard: { name: "Mustard", hex: "#cf9f36", earthy: true },
  "Sky Blue": { name: "Sky Blue", hex: "#9cc3e4", soft: true },
  Cobalt: { name: "Cobalt", hex: "#2c4fa3" },
  Blush: { name: "Blush", hex: "#e6b8ae", soft: true },
  Lilac: { name: "Lilac", hex: "#b9a6d1", soft: true },
  Chocolate: { name: "Chocolate", hex: "#5a3c2b", earthy: true },
  Red: { name: "Red", hex: "#b3262e" },
  Teal: { name: "Teal", hex: "#2a6f73" },
  Cream: { name: "Cream", hex: "#f3ead3", neutral: true, soft: true },
  Indigo: { name: "Indigo", hex: "#2d3a5e", denim: true },
  "Mid Wash": { name: "Mid Wash", hex: "#4f6f98", denim: true },
  "Light Wash": { name: "Light Wash", hex: "#8fabcb", denim: true },
  "Washed Black": { name: "Washed Black", hex: "#2b2b2e", denim: true, neutral: true },
};

// ---------------------------------------------------------------------------------------------
// Materials

export interface Material {
  name: string;
  composition: string;
  care: string;
  zh: string;
  /** Adjective for review and description texts. */
  feel: string;
}

const M = (name: string, composition: string, care: string, zh: string, feel: string): Material => ({ name, composition, care, zh, feel });
const WASH = "Machine wash cold, tumble dry low";
const GENTLE = "Hand wash or gentle machine wash, dry flat";
const DRY = "Dry clean only";

export const MATERIALS: Record<string, Material> = {
  Cotton: M("Cotton", "100% cotton", WASH, "纯棉", "soft"),
  "Organic Cotton": M("Organic Cotton", "100% organic cotton (GOTS certified)", WASH, "有机棉", "soft and substantial"),
  "Pima Cotton": M("Pima Cotton", "100% Pima cotton", WASH, "匹马棉", "silky smooth"),
  "Slub Cotton": M("Slub Cotton", "100% slub cotton", WASH, "竹节棉", "textured and airy"),
  Jersey: M("Jersey", "95% cotton, 5% elastane", WASH, "针织", "stretchy and comfortable"),
  "Linen-Blend": M("Linen-Blend", "55% linen, 45% cotton", "Machine wash cold, line dry", "亚麻混纺", "light and breathable"),
  Linen: M("Linen", "100% European linen", "Machine wash cold, line dry", "亚麻", "breathable and crisp"),
  Merino: M("Merino", "100% extra-fine merino wool", GENTLE, "美利奴羊毛", "fine and warm"),
  Piqué: M("Piqué", "100% cotton piqué", WASH, "珠地棉", "structured and breathable"),
  Oxford: M("Oxford", "100% cotton Oxford cloth", WASH, "牛津纺", "sturdy yet soft"),
  Poplin: M("Poplin", "100% cotton poplin", WASH, "府绸", "crisp and smooth"),
  Flannel: M("Flannel", "100% brushed cotton flannel", WASH, "法兰绒", "cosy and brushed"),
  Chambray: M("Chambray", "100% cotton chambray", WASH, "青年布", "soft and lightweight"),
  Silk: M("Silk", "100% mulberry silk", DRY, "真丝", "fluid and luxurious"),
  Corduroy: M("Corduroy", "100% cotton corduroy", WASH, "灯芯绒", "soft and hard-wearing"),
  Seersucker: M("Seersucker", "100% cotton seersucker", WASH, "泡泡纱", "light and crinkled"),
  Fleece: M("Fleece", "80% cotton, 20% recycled polyester fleece", WASH, "抓绒", "warm and brushed"),
  "Loopback Cotton": M("Loopback Cotton", "100% loopback cotton", WASH, "毛圈棉", "heavy and soft"),
  "French Terry": M("French Terry", "100% cotton French terry", WASH, "法国毛圈", "soft and breathable"),
  "Brushed Cotton": M("Brushed Cotton", "100% brushed cotton", WASH, "磨毛棉", "peachy soft"),
  Cashmere: M("Cashmere", "100% Mongolian cashmere", GENTLE, "羊绒", "incredibly soft"),
  Lambswool: M("Lambswool", "100% lambswool", GENTLE, "小羊毛", "warm and lofty"),
  "Alpaca-Blend": M("Alpaca-Blend", "40% alpaca, 40% wool, 20% polyamide", GENTLE, "羊驼毛混纺", "soft and airy"),
  "Mohair-Blend": M("Mohair-Blend", "45% mohair, 35% wool, 20% polyamide", GENTLE, "马海毛", "fluffy and light"),
  Nylon: M("Nylon", "100% recycled nylon, polyester lining", WASH, "尼龙", "light and weather-ready"),
  "Cotton Twill": M("Cotton Twill", "100% cotton twill", WASH, "斜纹棉", "sturdy and soft"),
  Suede: M("Suede", "100% goat suede, cotton lining", "Specialist leather clean", "麂皮", "buttery soft"),
  "Waxed Cotton": M("Waxed Cotton", "100% waxed cotton, cotton lining", "Wipe clean, re-wax as needed", "油蜡棉", "rugged"),
  Canvas: M("Canvas", "100% cotton canvas", WASH, "帆布", "tough and hard-wearing"),
  Technical: M("Technical", "100% polyamide, water-repellent finish", WASH, "机能面料", "light and protective"),
  Wool: M("Wool", "100% wool", DRY, "羊毛", "warm and smooth"),
  "Wool-Blend": M("Wool-Blend", "70% wool, 30% polyamide", DRY, "羊毛混纺", "warm and structured"),
  "Cashmere-Blend": M("Cashmere-Blend", "90% wool, 10% cashmere", DRY, "羊绒混纺", "soft and warm"),
  "Boiled Wool": M("Boiled Wool", "100% boiled wool", DRY, "煮羊毛", "dense and cosy"),
  Gabardine: M("Gabardine", "100% cotton gabardine", DRY, "华达呢", "smooth and weather-resistant"),
  Tweed: M("Tweed", "100% wool tweed", DRY, "粗花呢", "textured and warm"),
  Velvet: M("Velvet", "82% viscose, 18% silk velvet", DRY, "丝绒", "rich and plush"),
  Hopsack: M("Hopsack", "100% wool hopsack", DRY, "板司呢", "breathable and crease-resistant"),
  "Selvedge Denim": M("Selvedge Denim", "100% cotton 14 oz selvedge denim", "Wash inside out, cold, rarely", "赤耳牛仔", "rigid at first, then moulds to you"),
  "Rigid Denim": M("Rigid Denim", "100% cotton 13 oz denim", "Wash inside out, cold", "原色牛仔", "sturdy"),
  "Stretch Denim": M("Stretch Denim", "98% cotton, 2% elastane denim", "Wash inside out, cold", "弹力牛仔", "comfortable with a little stretch"),
  "Organic Denim": M("Organic Denim", "100% organic cotton denim", "Wash inside out, cold", "有机牛仔", "soft and sturdy"),
  "Japanese Denim": M("Japanese Denim", "100% cotton Japanese denim", "Wash inside out, cold, rarely", "日本牛仔", "dense and characterful"),
  Chino: M("Chino", "98% cotton, 2% elastane twill", WASH, "卡其", "smooth and easy"),
  Crepe: M("Crepe", "100% recycled polyester crepe", "Gentle machine wash, hang dry", "绉纱", "fluid and drapey"),
  Satin: M("Satin", "100% viscose satin", "Hand wash cold, hang dry", "缎面", "glossy and fluid"),
  "Cotton Poplin": M("Cotton Poplin", "100% cotton poplin", WASH, "纯棉府绸", "crisp and cool"),
  Broderie: M("Broderie", "100% cotton broderie anglaise", "Hand wash cold", "镂空刺绣", "delicate and airy"),
  Denim: M("Denim", "100% cotton denim", "Wash inside out, cold", "牛仔", "sturdy"),
};

// ---------------------------------------------------------------------------------------------
// Garment types

export interface GarmentType {
  key: string;
  kind: GarmentKind;
  productType: string;
  /** Singular noun for alt texts and review texts. */
  noun: string;
  zh: string;
  genders: Gender[];
  fits: string[];
  materials: string[];
  nouns: string[];
  /** Title order: fit first ("Relaxed Linen Shirt") or material first ("Silk Wrap Dress"). */
  materialFirst?: boolean;
  price: [number, number];
  sizes: Record<Gender, string[]>;
  colours: string[];
  patterns: Partial<Record<Exclude<Pattern, "solid">, number>>;
  /** Weight per gender (how often the type appears). */
  weight: Partial<Record<Gender, number>>;
  tryon: boolean;
  top: boolean;
}

const LETTER: Record<Gender, string[]> = {
  menswear: ["S", "M", "L", "XL", "XXL"],
  womenswear: ["XS", "S", "M", "L", "XL"],
  both: ["XS", "S", "M", "L", "XL", "XXL"],
};
const WAIST: Record<Gender, string[]> = {
  menswear: ["28", "29", "30", "31", "32", "33", "34", "36"],
  womenswear: ["24", "25", "26", "27", "28", "29", "30", "31", "32"],
  both: ["26", "28", "30", "31", "32", "33", "34", "36"],
};
const EU_TAILORING: Record<Gender, string[]> = {
  menswear: ["EU 44", "EU 46", "EU 48", "EU 50", "EU 52", "EU 54"],
  womenswear: ["EU 34", "EU 36", "EU 38", "EU 40", "EU 42", "EU 44"],
  both: LETTER.both,
};

export const GARMENTS: GarmentType[] = [
  {
    key: "t-shirt",
    kind: "tshirt",
    productType: "T-Shirts",
    noun: "t-shirt",
    zh: "T恤",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Relaxed", "Boxy", "Classic", "Slim", "Oversized", "Heavyweight", "Essential", "Cropped"],
    materials: ["Cotton", "Organic Cotton", "Pima Cotton", "Slub Cotton", "Jersey", "Linen-Blend"],
    nouns: ["T-Shirt", "Tee", "Crew Neck Tee", "Pocket Tee"],
    price: [25, 70],
    sizes: LETTER,
    colours: ["Black", "Off White", "Navy", "Heather Grey", "Olive", "Sand", "Sky Blue", "Terracotta", "Sage", "Burgundy", "Mustard", "Lilac"],
    patterns: { stripes: 0.16 },
    weight: { menswear: 12, womenswear: 9, both: 14 },
    tryon: true,
    top: true,
  },
  {
    key: "polo",
    kind: "polo",
    productType: "Polos",
    noun: "polo shirt",
    zh: "Polo衫",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Classic", "Slim", "Relaxed", "Knitted", "Boxy"],
    materials: ["Piqué", "Cotton", "Merino", "Jersey", "Linen-Blend"],
    nouns: ["Polo Shirt", "Polo"],
    price: [45, 120],
    sizes: LETTER,
    colours: ["Navy", "Off White", "Black", "Forest Green", "Stone", "Sky Blue", "Burgundy", "Camel"],
    patterns: {},
    weight: { menswear: 6, womenswear: 2, both: 3 },
    tryon: true,
    top: true,
  },
  {
    key: "shirt",
    kind: "shirt",
    productType: "Shirts",
    noun: "shirt",
    zh: "衬衫",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Relaxed", "Slim", "Oversized", "Classic", "Boxy", "Regular"],
    materials: ["Linen", "Oxford", "Poplin", "Flannel", "Chambray", "Silk", "Corduroy", "Seersucker"],
    nouns: ["Shirt", "Button-Down Shirt", "Overshirt", "Camp Collar Shirt"],
    price: [45, 160],
    sizes: LETTER,
    colours: ["Off White", "Sky Blue", "Navy", "Black", "Stone", "Olive", "Blush", "Rust", "Ecru", "Cobalt", "Sage"],
    patterns: { stripes: 0.14, check: 0.1, dots: 0.03 },
    weight: { menswear: 12, womenswear: 8, both: 8 },
    tryon: true,
    top: true,
  },
  {
    key: "hoodie",
    kind: "hoodie",
    productType: "Hoodies & Sweatshirts",
    noun: "hoodie",
    zh: "连帽卫衣",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Relaxed", "Oversized", "Heavyweight", "Classic", "Cropped"],
    materials: ["Fleece", "Loopback Cotton", "French Terry", "Brushed Cotton"],
    nouns: ["Hoodie", "Pullover Hoodie", "Hooded Sweatshirt"],
    price: [55, 150],
    sizes: LETTER,
    colours: ["Heather Grey", "Black", "Navy", "Forest Green", "Ecru", "Chocolate", "Sage", "Burgundy", "Cobalt", "Lilac"],
    patterns: {},
    weight: { menswear: 7, womenswear: 4, both: 12 },
    tryon: true,
    top: true,
  },
  {
    key: "sweater",
    kind: "sweater",
    productType: "Knitwear",
    noun: "sweater",
    zh: "毛衣",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Chunky", "Fine-Knit", "Relaxed", "Classic", "Oversized", "Ribbed"],
    materials: ["Merino", "Cashmere", "Lambswool", "Cotton", "Alpaca-Blend", "Mohair-Blend"],
    nouns: ["Sweater", "Crew Neck Jumper", "Knit Sweater", "Jumper"],
    price: [70, 260],
    sizes: LETTER,
    colours: ["Cream", "Camel", "Navy", "Charcoal", "Forest Green", "Burgundy", "Heather Grey", "Rust", "Sage", "Black", "Blush"],
    patterns: { stripes: 0.12 },
    weight: { menswear: 9, womenswear: 8, both: 10 },
    tryon: true,
    top: true,
  },
  {
    key: "cardigan",
    kind: "cardigan",
    productType: "Knitwear",
    noun: "cardigan",
    zh: "开衫",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Chunky", "Fine-Knit", "Relaxed", "Cropped", "Longline"],
    materials: ["Merino", "Cashmere", "Lambswool", "Cotton", "Alpaca-Blend"],
    nouns: ["Cardigan", "Button Cardigan"],
    price: [75, 240],
    sizes: LETTER,
    colours: ["Cream", "Camel", "Navy", "Olive", "Heather Grey", "Lilac", "Black", "Mustard"],
    patterns: {},
    weight: { menswear: 3, womenswear: 6, both: 4 },
    tryon: true,
    top: true,
  },
  {
    key: "jacket",
    kind: "jacket",
    productType: "Jackets",
    noun: "jacket",
    zh: "夹克",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Cropped", "Relaxed", "Classic", "Boxy", "Lightweight", "Padded"],
    materials: ["Nylon", "Cotton Twill", "Suede", "Waxed Cotton", "Canvas", "Corduroy", "Technical"],
    nouns: ["Bomber Jacket", "Harrington Jacket", "Zip Jacket", "Utility Jacket", "Field Jacket"],
    price: [120, 420],
    sizes: LETTER,
    colours: ["Olive", "Black", "Navy", "Khaki", "Stone", "Chocolate", "Rust", "Forest Green", "Sand"],
    patterns: {},
    weight: { menswear: 8, womenswear: 6, both: 8 },
    tryon: true,
    top: true,
  },
  {
    key: "coat",
    kind: "coat",
    productType: "Coats",
    noun: "coat",
    zh: "大衣",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Double-Breasted", "Belted", "Longline", "Oversized", "Tailored", "Classic"],
    materials: ["Wool", "Wool-Blend", "Cashmere-Blend", "Boiled Wool", "Gabardine"],
    nouns: ["Coat", "Overcoat", "Wrap Coat", "Trench Coat", "Car Coat"],
    price: [180, 650],
    sizes: LETTER,
    colours: ["Camel", "Charcoal", "Navy", "Black", "Stone", "Chocolate", "Forest Green", "Burgundy"],
    patterns: { check: 0.1 },
    weight: { menswear: 6, womenswear: 6, both: 4 },
    tryon: true,
    top: true,
  },
  {
    key: "blazer",
    kind: "blazer",
    productType: "Blazers",
    noun: "blazer",
    zh: "西装外套",
    genders: ["menswear", "womenswear"],
    fits: ["Single-Breasted", "Relaxed", "Tailored", "Unstructured", "Slim", "Oversized"],
    materials: ["Wool", "Linen", "Cotton", "Tweed", "Seersucker", "Velvet", "Hopsack"],
    nouns: ["Blazer", "Suit Jacket", "Sport Coat"],
    price: [150, 480],
    sizes: EU_TAILORING,
    colours: ["Navy", "Charcoal", "Black", "Stone", "Camel", "Olive", "Khaki", "Burgundy"],
    patterns: { check: 0.14, stripes: 0.05 },
    weight: { menswear: 6, womenswear: 6 },
    tryon: true,
    top: true,
  },
  {
    key: "jeans",
    kind: "jeans",
    productType: "Jeans",
    noun: "jeans",
    zh: "牛仔裤",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Straight", "Slim", "Relaxed", "Tapered", "Wide-Leg", "Bootcut", "High-Rise", "Barrel"],
    materials: ["Selvedge Denim", "Rigid Denim", "Stretch Denim", "Organic Denim", "Japanese Denim"],
    nouns: ["Jeans"],
    price: [69, 240],
    sizes: WAIST,
    colours: ["Indigo", "Mid Wash", "Light Wash", "Washed Black", "Ecru"],
    patterns: {},
    weight: { menswear: 9, womenswear: 8, both: 8 },
    tryon: false,
    top: false,
  },
  {
    key: "trousers",
    kind: "trousers",
    productType: "Trousers",
    noun: "trousers",
    zh: "休闲裤",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Pleated", "Wide-Leg", "Tapered", "Straight", "Relaxed", "Cigarette", "High-Waisted", "Drawstring"],
    materials: ["Wool", "Linen", "Cotton Twill", "Corduroy", "Chino", "Crepe", "Gabardine"],
    nouns: ["Trousers", "Chinos", "Pants"],
    price: [65, 220],
    sizes: WAIST,
    colours: ["Stone", "Navy", "Black", "Charcoal", "Olive", "Camel", "Khaki", "Off White", "Chocolate"],
    patterns: { check: 0.06, stripes: 0.04 },
    weight: { menswear: 9, womenswear: 8, both: 5 },
    tryon: false,
    top: false,
  },
  {
    key: "shorts",
    kind: "shorts",
    productType: "Shorts",
    noun: "shorts",
    zh: "短裤",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Relaxed", "Pleated", "Tailored", "Drawstring", "Classic"],
    materials: ["Linen", "Cotton Twill", "Seersucker", "Chino", "Denim"],
    nouns: ["Shorts", "Chino Shorts", "Bermuda Shorts"],
    price: [40, 110],
    sizes: LETTER,
    colours: ["Stone", "Navy", "Olive", "Sand", "Off White", "Sky Blue", "Black"],
    patterns: { stripes: 0.1 },
    weight: { menswear: 5, womenswear: 3, both: 4 },
    tryon: false,
    top: false,
  },
  {
    key: "dress",
    kind: "dress",
    productType: "Dresses",
    noun: "dress",
    zh: "连衣裙",
    genders: ["womenswear"],
    fits: ["Belted", "Tiered", "Puff-Sleeve", "Fluid", "Relaxed", "Fitted", "Smocked"],
    materials: ["Linen", "Silk", "Cotton Poplin", "Satin", "Jersey", "Crepe", "Broderie"],
    nouns: ["Midi Dress", "Maxi Dress", "Shirt Dress", "Wrap Dress", "Slip Dress", "Tea Dress"],
    materialFirst: true,
    price: [85, 340],
    sizes: { menswear: LETTER.womenswear, womenswear: LETTER.womenswear, both: LETTER.womenswear },
    colours: ["Black", "Navy", "Sage", "Blush", "Terracotta", "Cream", "Lilac", "Red", "Cobalt", "Mustard", "Forest Green", "Sky Blue"],
    patterns: { dots: 0.14, stripes: 0.08 },
    weight: { womenswear: 14 },
    tryon: true,
    top: true,
  },
  {
    key: "skirt",
    kind: "skirt",
    productType: "Skirts",
    noun: "skirt",
    zh: "半身裙",
    genders: ["womenswear"],
    fits: ["Pleated", "A-Line", "Wrap", "Bias-Cut", "Tiered", "Button-Front"],
    materials: ["Satin", "Wool", "Linen", "Denim", "Cotton", "Crepe", "Corduroy"],
    nouns: ["Midi Skirt", "Mini Skirt", "Maxi Skirt", "Skirt"],
    price: [55, 220],
    sizes: { menswear: LETTER.womenswear, womenswear: LETTER.womenswear, both: LETTER.womenswear },
    colours: ["Black", "Camel", "Navy", "Sage", "Burgundy", "Cream", "Chocolate", "Blush", "Forest Green"],
    patterns: { check: 0.14, dots: 0.08 },
    weight: { womenswear: 10 },
    tryon: false,
    top: false,
  },
];

/** Colours a pattern is made in (keeps the number of distinct images small). */
export const PATTERN_COLOURS: Record<Exclude<Pattern, "solid">, string[]> = {
  stripes: ["Navy", "Off White", "Black", "Sky Blue", "Burgundy", "Forest Green"],
  check: ["Navy", "Camel", "Charcoal", "Olive", "Burgundy", "Stone"],
  dots: ["Black", "Navy", "Cream", "Red", "Sage"],
};

export const PATTERN_WORD: Record<Exclude<Pattern, "solid">, string> = { stripes: "Striped", check: "Checked", dots: "Polka Dot" };
export const PATTERN_ZH: Record<Exclude<Pattern, "solid">, string> = { stripes: "条纹", check: "格纹", dots: "波点" };

export const FIT_ZH: Record<string, string> = {
  Relaxed: "宽松",
  Oversized: "oversize宽松",
  Boxy: "廓形",
  Slim: "修身",
  Classic: "经典",
  Cropped: "短款",
  Heavyweight: "重磅",
  Chunky: "粗针",
  "Fine-Knit": "细针",
  Longline: "长款",
  Tailored: "修身剪裁",
  Straight: "直筒",
  "Wide-Leg": "阔腿",
  Tapered: "锥形",
  Pleated: "百褶",
  "A-Line": "A字",
  "Double-Breasted": "双排扣",
  "Single-Breasted": "单排扣",
  Belted: "系带",
  "High-Waisted": "高腰",
  "High-Rise": "高腰",
  Padded: "加棉",
};

// ---------------------------------------------------------------------------------------------
// Vendors and stores

export interface VendorDef {
  key: string;
  name: string;
  handle: string;
  commission: number;
  email: string;
}

export const VENDORS: VendorDef[] = [
  { key: "northwind", name: "Northwind Atelier", handle: "northwind-atelier", commission: 15, email: "partners@northwind-atelier.example" },
  { key: "lumiere", name: "Maison Lumière", handle: "maison-lumiere", commission: 18, email: "wholesale@maison-lumiere.example" },
  { key: "kestrel", name: "Kestrel & Co.", handle: "kestrel-and-co", commission: 14, email: "hello@kestrel.example" },
  { key: "saltmarsh", name: "Saltmarsh Studio", handle: "saltmarsh-studio", commission: 16, email: "studio@saltmarsh.example" },
  { key: "atlas", name: "Atlas Supply Co.", handle: "atlas-supply-co", commission: 12.5, email: "ops@atlas-supply.example" },
  { key: "ember", name: "Ember & Ash", handle: "ember-and-ash", commission: 17.5, email: "team@emberandash.example" },
  { key: "verdant", name: "Verdant Threads", handle: "verdant-threads", commission: 13.5, email: "care@verdant-threads.example" },
];

export interface StoreDef {
  key: string;
  name: string;
  vendor: string;
  gender: Gender;
  /** Garment keys this store specialises in (more of them). */
  focus: string[];
  description: string;
  sizeRecommendation: string;
  monogram: string;
  logoColor: string;
}

export const STORES: StoreDef[] = [
  {
    key: "northwind",
    name: "Northwind",
    vendor: "northwind",
    gender: "menswear",
    focus: ["shirt", "jacket", "coat"],
    description: "Scandinavian menswear built on honest fabrics and quiet details.",
    sizeRecommendation: "True to size. Shirts have a regular fit; size down for a closer cut.",
    monogram: "N",
    logoColor: "#1f2a44",
  },
  {
    key: "northwind-femme",
    name: "Northwind Femme",
    vendor: "northwind",
    gender: "womenswear",
    focus: ["dress", "blazer", "trousers"],
    description: "Clean-lined womenswear from the Northwind Atelier studio in Copenhagen.",
    sizeRecommendation: "True to size. Tailoring follows EU sizing; dresses are cut with ease through the waist.",
    monogram: "NF",
    logoColor: "#3a3d42",
  },
  {
    key: "northwind-basics",
    name: "Northwind Basics",
    vendor: "northwind",
    gender: "both",
    focus: ["t-shirt", "hoodie", "sweater"],
    description: "Everyday essentials in organic cotton and merino, made to be worn on repeat.",
    sizeRecommendation: "Unisex sizing: women usually take one size down from their usual size.",
    monogram: "NB",
    logoColor: "#5e6b3a",
  },
  {
    key: "lumiere",
    name: "Lumière",
    vendor: "lumiere",
    gender: "womenswear",
    focus: ["dress", "skirt", "blazer"],
    description: "Parisian ease: fluid silks, sharp blazers and dresses for long evenings.",
    sizeRecommendation: "Runs slightly small — we recommend sizing up if you are between sizes.",
    monogram: "L",
    logoColor: "#6d1f2f",
  },
  {
    key: "lumiere-homme",
    name: "Lumière Homme",
    vendor: "lumiere",
    gender: "menswear",
    focus: ["blazer", "trousers", "shirt"],
    description: "Relaxed French tailoring for men, in linen, wool and fine cotton.",
    sizeRecommendation: "Tailoring is cut slim: take your usual EU size, or one up for a relaxed fit.",
    monogram: "LH",
    logoColor: "#2c4fa3",
  },
  {
    key: "kestrel-outdoor",
    name: "Kestrel Outdoor",
    vendor: "kestrel",
    gender: "both",
    focus: ["jacket", "coat", "hoodie"],
    description: "Technical outerwear and fleece for city commutes and weekend hikes.",
    sizeRecommendation: "Outerwear is cut roomy to layer over knitwear; size down for a trim fit.",
    monogram: "K",
    logoColor: "#2f4a36",
  },
  {
    key: "kestrel-tailoring",
    name: "Kestrel Tailoring",
    vendor: "kestrel",
    gender: "menswear",
    focus: ["blazer", "trousers", "coat"],
    description: "Half-canvassed tailoring and overcoats made in Portugal.",
    sizeRecommendation: "Jackets in EU sizes: 48 fits a 38\" chest. Trousers have 4 cm of let-out.",
    monogram: "KT",
    logoColor: "#3a3d42",
  },
  {
    key: "saltmarsh",
    name: "Saltmarsh",
    vendor: "saltmarsh",
    gender: "womenswear",
    focus: ["shirt", "dress", "trousers", "shorts"],
    description: "Coastal linen and cotton pieces, washed soft and made for summer.",
    sizeRecommendation: "Relaxed fits — size down for a closer fit. Linen softens and relaxes with wear.",
    monogram: "S",
    logoColor: "#a3b18a",
  },
  {
    key: "tidewater-denim",
    name: "Tidewater Denim",
    vendor: "saltmarsh",
    gender: "both",
    focus: ["jeans", "jacket", "shirt"],
    description: "Selvedge and organic denim, cut and sewn in small runs.",
    sizeRecommendation: "Rigid denim stretches about half a size; buy snug. Stretch styles: your usual waist.",
    monogram: "TD",
    logoColor: "#2d3a5e",
  },
  {
    key: "atlas-workwear",
    name: "Atlas Workwear",
    vendor: "atlas",
    gender: "menswear",
    focus: ["jacket", "trousers", "shirt"],
    description: "Workwear classics in canvas, twill and chambray, built to outlast trends.",
    sizeRecommendation: "Boxy workwear cut: take your usual size; size down if you prefer it fitted.",
    monogram: "A",
    logoColor: "#a14a2a",
  },
  {
    key: "atlas-street",
    name: "Atlas Street",
    vendor: "atlas",
    gender: "menswear",
    focus: ["hoodie", "t-shirt", "jeans"],
    description: "Heavyweight jersey, oversized hoodies and relaxed denim.",
    sizeRecommendation: "Oversized by design — size down one for a regular fit.",
    monogram: "AS",
    logoColor: "#1c1c1e",
  },
  {
    key: "ember-and-ash",
    name: "Ember & Ash",
    vendor: "ember",
    gender: "womenswear",
    focus: ["sweater", "cardigan", "skirt"],
    description: "Soft knits and fluid skirts in warm, earthy tones.",
    sizeRecommendation: "Knitwear is generously cut; most customers take their usual size.",
    monogram: "E&A",
    logoColor: "#c0643f",
  },
  {
    key: "ashgrove-knitwear",
    name: "Ashgrove Knitwear",
    vendor: "ember",
    gender: "both",
    focus: ["sweater", "cardigan"],
    description: "Lambswool and cashmere knitwear spun and knitted in Scotland.",
    sizeRecommendation: "Unisex knit sizing; see the size chart for chest measurements.",
    monogram: "AK",
    logoColor: "#b5854f",
  },
  {
    key: "verdant",
    name: "Verdant",
    vendor: "verdant",
    gender: "womenswear",
    focus: ["t-shirt", "dress", "trousers"],
    description: "Organic and recycled fabrics, traceable from field to finished garment.",
    sizeRecommendation: "True to size. Organic cotton may shrink slightly on a hot wash.",
    monogram: "V",
    logoColor: "#2a6f73",
  },
];

// ---------------------------------------------------------------------------------------------
// Styles and collections

export interface StyleDef {
  handle: string;
  name: string;
  description: string;
  gender: Gender;
  featured: boolean;
}

export const STYLES: StyleDef[] = [
  { handle: "minimalist", name: "Minimalist", description: "Clean lines, neutral colours and nothing extra.", gender: "both", featured: true },
  { handle: "streetwear", name: "Streetwear", description: "Oversized hoodies, heavy tees and relaxed denim.", gender: "both", featured: true },
  { handle: "smart-casual", name: "Smart Casual", description: "Tailoring relaxed for every day: shirts, knits and easy blazers.", gender: "both", featured: true },
  { handle: "workwear", name: "Workwear", description: "Canvas, twill and chambray built to last.", gender: "menswear", featured: false },
  { handle: "romantic", name: "Romantic", description: "Soft colours, polka dots and fluid dresses.", gender: "womenswear", featured: false },
  { handle: "outdoor", name: "Outdoor", description: "Weather-ready layers for the trail and the commute.", gender: "both", featured: false },
];

export interface CollectionDef {
  handle: string;
  title: string;
  description: string;
  gender: Gender;
  featured: boolean;
  /** Partner vendor key, if the collection is a partner collection. */
  partner?: string;
}

export const COLLECTIONS: CollectionDef[] = [
  { handle: "autumn-layers", title: "Autumn Layers", description: "Coats, jackets and knits in earthy tones for the colder months.", gender: "both", featured: true },
  { handle: "the-linen-edit", title: "The Linen Edit", description: "Breathable linen shirts, trousers and dresses.", gender: "both", featured: false },
  { handle: "menswear-essentials", title: "Menswear Essentials", description: "The tees, shirts, jeans and trousers every wardrobe is built on.", gender: "menswear", featured: true },
  { handle: "the-dress-edit", title: "The Dress Edit", description: "Midi, maxi and slip dresses for every occasion.", gender: "womenswear", featured: true },
  { handle: "denim-shop", title: "Denim Shop", description: "Selvedge, rigid and stretch denim in every wash.", gender: "both", featured: false },
  { handle: "northwind-atelier-picks", title: "Northwind Atelier Picks", description: "Favourites from the Northwind Atelier stores.", gender: "both", featured: false, partner: "northwind" },
];

// ---------------------------------------------------------------------------------------------
// People

export const FIRST_NAMES = [
  "Emma", "Liam", "Olivia", "Noah", "Ava", "Lucas", "Mia", "Ethan", "Chloe", "Mateo", "Isla", "Leo", "Zoe", "Hugo", "Freya",
  "Oscar", "Aisha", "Kenji", "Priya", "Jonas", "Elena", "Samuel", "Nora", "Tomás", "Ingrid", "Marcus", "Yara", "Felix", "Hana", "Diego",
  "Amara", "Theo", "Lena", "Rafael", "Sofia", "Arjun", "Maya", "Omar", "Julia", "Wei",
];
export const LAST_NAMES = [
  "Andersen", "Bennett", "Costa", "Dubois", "Evans", "Fischer", "García", "Hughes", "Ito", "Jensen", "Khan", "Larsen", "Moreau", "Nakamura",
  "Okafor", "Patel", "Quinn", "Rossi", "Schmidt", "Tanaka", "Usman", "Varga", "Walsh", "Xu", "Young", "Zimmer", "Byrne", "Lindqvist", "Novak", "Silva",
];

export const INTERESTS = [
  "menswear,streetwear",
  "womenswear,romantic",
  "womenswear,minimalist",
  "menswear,smart-casual",
  "menswear,workwear",
  "womenswear,smart-casual",
  "menswear,womenswear,outdoor",
  "womenswear,streetwear",
  "menswear,minimalist",
  "",
];

export const CITIES: { city: string; province: string; zip: string; country: string; countryCode: string }[] = [
  { city: "Brooklyn", province: "NY", zip: "11211", country: "United States", countryCode: "US" },
  { city: "Portland", province: "OR", zip: "97209", country: "United States", countryCode: "US" },
  { city: "Austin", province: "TX", zip: "78704", country: "United States", countryCode: "US" },
  { city: "Chicago", province: "IL", zip: "60614", country: "United States", countryCode: "US" },
  { city: "San Francisco", province: "CA", zip: "94110", country: "United States", countryCode: "US" },
  { city: "Seattle", province: "WA", zip: "98122", country: "United States", countryCode: "US" },
  { city: "Denver", province: "CO", zip: "80205", country: "United States", countryCode: "US" },
  { city: "Boston", province: "MA", zip: "02118", country: "United States", countryCode: "US" },
];
export const STREETS = ["Maple Ave", "Bedford St", "Alder Way", "Harbor Rd", "Linden Blvd", "Cedar Lane", "Elm St", "Mission St", "Union Ave"];

// ---------------------------------------------------------------------------------------------
// Reviews

export const REVIEW_TITLES: Record<number, string[]> = {
  5: ["Absolutely love it", "Perfect fit", "Worth every penny", "New favourite", "Beautiful quality", "Exactly as pictured", "Buying another colour"],
  4: ["Really nice", "Great, one small thing", "Very happy", "Good quality", "Lovely colour", "Would recommend"],
  3: ["It's okay", "Mixed feelings", "Decent but not perfect", "Fine for the price"],
  2: ["Disappointed", "Not as expected", "Sizing is off"],
  1: ["Not for me", "Poor quality", "Returned it"],
};

export const FIT_REMARKS = [
  "Fits true to size.",
  "Runs slightly small, so I'd size up.",
  "Runs a little large; I sized down.",
  "I'm 5'8\" and the M fits perfectly.",
  "Relaxed fit, exactly as described.",
  "The length is just right on me.",
];

export const REVIEW_BODIES: Record<number, string[]> = {
  5: [
    "The {colour} is even nicer in person and the {material} feels {feel}. {fit}",
    "Wore this {noun} to a wedding and got so many compliments. {fit}",
    "Beautifully made {noun} — the stitching is really neat. {fit}",
    "I've washed it a few times and it still looks new. {fit}",
    "Exactly the {noun} I was looking for. {fit} Fast delivery too.",
  ],
  4: [
    "Lovely {noun}, well made and the {colour} is a great shade. {fit} Only wish it came in more colours.",
    "Really happy with this. The {material} is {feel}. {fit}",
    "Great everyday {noun}. {fit} Took a little longer to arrive than expected.",
    "Nice quality for the price. {fit}",
  ],
  3: [
    "Nice {material} but the cut isn't quite right for me. {fit}",
    "The {colour} is a bit different from the photos. {fit}",
    "Good {noun}, but it creased more than I expected.",
    "It's fine. Nothing special, but it does the job. {fit}",
  ],
  2: [
    "The {material} felt thinner than I expected. {fit}",
    "Sizing is inconsistent — had to exchange it twice.",
    "The colour faded after a couple of washes.",
  ],
  1: [
    "A seam came loose after the first wash. Returned it.",
    "Nothing like the pictures, very disappointed.",
    "Way too small even though I ordered my usual size. Returned.",
  ],
};
