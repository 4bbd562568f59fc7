/**
 * Garment vocabulary of Taobao listings, Chinese → English: garment types (with the catalogue's
 * product types), fits, materials, patterns, colours (with hex values), genders, seasons, SKU
 * property names, sizes, and the marketing words a title carries that mean nothing to a shopper
 * (新款, 百搭, 包邮…). The local translator builds English titles from it; the demo catalogue
 * (prisma/demo/taobao) writes its Chinese from the same words. Pure data and functions.
 */

export interface GarmentTerm {
  zh: string;
  en: string;
  /** The catalogue's product type (as the demo data spells it). */
  productType: string;
  /** Virtual try-on works on this kind of garment (tops, dresses, outerwear). */
  tryon: boolean;
}

/** Longest first when matching. */
export const GARMENT_TERMS: GarmentTerm[] = [
  { zh: "连帽卫衣", en: "Hoodie", productType: "Hoodies & Sweatshirts", tryon: true },
  { zh: "圆领卫衣", en: "Crew Neck Sweatshirt", productType: "Hoodies & Sweatshirts", tryon: true },
  { zh: "卫衣", en: "Sweatshirt", productType: "Hoodies & Sweatshirts", tryon: true },
  { zh: "短袖T恤", en: "T-Shirt", productType: "T-Shirts", tryon: true },
  { zh: "长袖T恤", en: "Long Sleeve T-Shirt", productType: "T-Shirts", tryon: true },
  { zh: "T恤", en: "T-Shirt", productType: "T-Shirts", tryon: true },
  { zh: "t恤", en: "T-Shirt", productType: "T-Shirts", tryon: true },
  { zh: "Polo衫", en: "Polo Shirt", productType: "Polos", tryon: true },
  { zh: "POLO衫", en: "Polo Shirt", productType: "Polos", tryon: true },
  { zh: "polo衫", en: "Polo Shirt", productType: "Polos", tryon: true },
  { zh: "衬衫", en: "Shirt", productType: "Shirts", tryon: true },
  { zh: "衬衣", en: "Shirt", productType: "Shirts", tryon: true },
  { zh: "针织开衫", en: "Knit Cardigan", productType: "Knitwear", tryon: true },
  { zh: "开衫", en: "Cardigan", productType: "Knitwear", tryon: true },
  { zh: "针织衫", en: "Knit Sweater", productType: "Knitwear", tryon: true },
  { zh: "毛衣", en: "Sweater", productType: "Knitwear", tryon: true },
  { zh: "冲锋衣", en: "Shell Jacket", productType: "Jackets", tryon: true },
  { zh: "牛仔外套", en: "Denim Jacket", productType: "Jackets", tryon: true },
  { zh: "夹克", en: "Jacket", productType: "Jackets", tryon: true },
  { zh: "羽绒服", en: "Down Jacket", productType: "Jackets", tryon: true },
  { zh: "风衣", en: "Trench Coat", productType: "Coats", tryon: true },
  { zh: "大衣", en: "Coat", productType: "Coats", tryon: true },
  { zh: "西装外套", en: "Blazer", productType: "Blazers", tryon: true },
  { zh: "西服", en: "Blazer", productType: "Blazers", tryon: true },
  { zh: "外套", en: "Jacket", productType: "Jackets", tryon: true },
  { zh: "牛仔裤", en: "Jeans", productType: "Jeans", tryon: false },
  { zh: "阔腿裤", en: "Wide-Leg Trousers", productType: "Trousers", tryon: false },
  { zh: "休闲裤", en: "Trousers", productType: "Trousers", tryon: false },
  { zh: "西裤", en: "Tailored Trousers", productType: "Trousers", tryon: false },
  { zh: "工装裤", en: "Cargo Trousers", productType: "Trousers", tryon: false },
  { zh: "长裤", en: "Trousers", productType: "Trousers", tryon: false },
  { zh: "短裤", en: "Shorts", productType: "Shorts", tryon: false },
  { zh: "连衣裙", en: "Dress", productType: "Dresses", tryon: true },
  { zh: "衬衫裙", en: "Shirt Dress", productType: "Dresses", tryon: true },
  { zh: "半身裙", en: "Skirt", productType: "Skirts", tryon: false },
  { zh: "百褶裙", en: "Pleated Skirt", productType: "Skirts", tryon: false },
];

/** Fits and cuts, as adjectives (title order: fit, pattern, material, garment). */
export const FIT_TERMS: [string, string][] = [
  ["oversize宽松", "Oversized"],
  ["oversize", "Oversized"],
  ["修身剪裁", "Tailored"],
  ["宽松", "Relaxed"],
  ["廓形", "Boxy"],
  ["修身", "Slim"],
  ["经典", "Classic"],
  ["短款", "Cropped"],
  ["重磅", "Heavyweight"],
  ["粗针", "Chunky"],
  ["细针", "Fine-Knit"],
  ["长款", "Longline"],
  ["直筒", "Straight"],
  ["阔腿", "Wide-Leg"],
  ["锥形", "Tapered"],
  ["百褶", "Pleated"],
  ["A字", "A-Line"],
  ["双排扣", "Double-Breasted"],
  ["单排扣", "Single-Breasted"],
  ["系带", "Belted"],
  ["高腰", "High-Waisted"],
  ["加棉", "Padded"],
  ["加绒", "Fleece-Lined"],
  ["加厚", "Thick"],
  ["落肩", "Drop-Shoulder"],
  ["立领", "Stand Collar"],
  ["圆领", "Crew Neck"],
  ["V领", "V-Neck"],
  ["翻领", "Lapel"],
  ["短袖", "Short Sleeve"],
  ["长袖", "Long Sleeve"],
];

export interface MaterialTerm {
  zh: string;
  en: string;
}

export const MATERIAL_TERMS: MaterialTerm[] = [
  { zh: "美利奴羊毛", en: "Merino" },
  { zh: "羊驼毛混纺", en: "Alpaca-Blend" },
  { zh: "羊绒混纺", en: "Cashmere-Blend" },
  { zh: "羊毛混纺", en: "Wool-Blend" },
  { zh: "亚麻混纺", en: "Linen-Blend" },
  { zh: "纯棉府绸", en: "Cotton Poplin" },
  { zh: "有机牛仔", en: "Organic Denim" },
  { zh: "日本牛仔", en: "Japanese Denim" },
  { zh: "赤耳牛仔", en: "Selvedge Denim" },
  { zh: "原色牛仔", en: "Rigid Denim" },
  { zh: "弹力牛仔", en: "Stretch Denim" },
  { zh: "机能面料", en: "Technical" },
  { zh: "镂空刺绣", en: "Broderie" },
  { zh: "有机棉", en: "Organic Cotton" },
  { zh: "匹马棉", en: "Pima Cotton" },
  { zh: "竹节棉", en: "Slub Cotton" },
  { zh: "珠地棉", en: "Piqué" },
  { zh: "毛圈棉", en: "Loopback Cotton" },
  { zh: "法国毛圈", en: "French Terry" },
  { zh: "磨毛棉", en: "Brushed Cotton" },
  { zh: "斜纹棉", en: "Cotton Twill" },
  { zh: "油蜡棉", en: "Waxed Cotton" },
  { zh: "牛津纺", en: "Oxford" },
  { zh: "法兰绒", en: "Flannel" },
  { zh: "青年布", en: "Chambray" },
  { zh: "灯芯绒", en: "Corduroy" },
  { zh: "泡泡纱", en: "Seersucker" },
  { zh: "小羊毛", en: "Lambswool" },
  { zh: "马海毛", en: "Mohair-Blend" },
  { zh: "煮羊毛", en: "Boiled Wool" },
  { zh: "华达呢", en: "Gabardine" },
  { zh: "粗花呢", en: "Tweed" },
  { zh: "板司呢", en: "Hopsack" },
  { zh: "纯棉", en: "Cotton" },
  { zh: "真丝", en: "Silk" },
  { zh: "亚麻", en: "Linen" },
  { zh: "府绸", en: "Poplin" },
  { zh: "针织", en: "Jersey" },
  { zh: "抓绒", en: "Fleece" },
  { zh: "羊绒", en: "Cashmere" },
  { zh: "羊毛", en: "Wool" },
  { zh: "尼龙", en: "Nylon" },
  { zh: "麂皮", en: "Suede" },
  { zh: "帆布", en: "Canvas" },
  { zh: "丝绒", en: "Velvet" },
  { zh: "卡其", en: "Chino" },
  { zh: "绉纱", en: "Crepe" },
  { zh: "缎面", en: "Satin" },
  { zh: "牛仔", en: "Denim" },
];

export const PATTERN_TERMS: [string, string][] = [
  ["条纹", "Striped"],
  ["格纹", "Checked"],
  ["格子", "Checked"],
  ["波点", "Polka Dot"],
  ["印花", "Printed"],
  ["纯色", ""],
];

export interface ColourTerm {
  zh: string;
  en: string;
  hex: string;
}

/** Colour values of 颜色分类, to the catalogue's colour names (longest first when matching). */
export const COLOUR_TERMS: ColourTerm[] = [
  { zh: "水洗黑", en: "Washed Black", hex: "#2b2b2e" },
  { zh: "浅卡其", en: "Stone", hex: "#c8bfae" },
  { zh: "米白色", en: "Off White", hex: "#f2efe8" },
  { zh: "本白色", en: "Ecru", hex: "#e6dcc6" },
  { zh: "藏青色", en: "Navy", hex: "#1f2a44" },
  { zh: "藏蓝色", en: "Navy", hex: "#1f2a44" },
  { zh: "深灰色", en: "Charcoal", hex: "#3a3d42" },
  { zh: "炭灰色", en: "Charcoal", hex: "#3a3d42" },
  { zh: "花灰色", en: "Heather Grey", hex: "#9b9ea3" },
  { zh: "麻灰色", en: "Heather Grey", hex: "#9b9ea3" },
  { zh: "浅灰色", en: "Light Grey", hex: "#c4c6c9" },
  { zh: "卡其色", en: "Khaki", hex: "#a39a6b" },
  { zh: "橄榄绿", en: "Olive", hex: "#5e6b3a" },
  { zh: "军绿色", en: "Olive", hex: "#5e6b3a" },
  { zh: "墨绿色", en: "Forest Green", hex: "#2f4a36" },
  { zh: "灰绿色", en: "Sage", hex: "#a3b18a" },
  { zh: "鼠尾草绿", en: "Sage", hex: "#a3b18a" },
  { zh: "酒红色", en: "Burgundy", hex: "#6d1f2f" },
  { zh: "铁锈红", en: "Rust", hex: "#a14a2a" },
  { zh: "砖红色", en: "Terracotta", hex: "#c0643f" },
  { zh: "姜黄色", en: "Mustard", hex: "#cf9f36" },
  { zh: "天蓝色", en: "Sky Blue", hex: "#9cc3e4" },
  { zh: "雾霾蓝", en: "Sky Blue", hex: "#9cc3e4" },
  { zh: "克莱因蓝", en: "Cobalt", hex: "#2c4fa3" },
  { zh: "钴蓝色", en: "Cobalt", hex: "#2c4fa3" },
  { zh: "藕粉色", en: "Blush", hex: "#e6b8ae" },
  { zh: "香芋紫", en: "Lilac", hex: "#b9a6d1" },
  { zh: "咖啡色", en: "Chocolate", hex: "#5a3c2b" },
  { zh: "孔雀蓝", en: "Teal", hex: "#2a6f73" },
  { zh: "奶油色", en: "Cream", hex: "#f3ead3" },
  { zh: "奶油白", en: "Cream", hex: "#f3ead3" },
  { zh: "原色", en: "Indigo", hex: "#2d3a5e" },
  { zh: "深蓝色", en: "Indigo", hex: "#2d3a5e" },
  { zh: "中蓝色", en: "Mid Wash", hex: "#4f6f98" },
  { zh: "浅蓝色", en: "Light Wash", hex: "#8fabcb" },
  { zh: "沙色", en: "Sand", hex: "#d6c29f" },
  { zh: "杏色", en: "Sand", hex: "#d6c29f" },
  { zh: "驼色", en: "Camel", hex: "#b5854f" },
  { zh: "黑色", en: "Black", hex: "#1c1c1e" },
  { zh: "白色", en: "White", hex: "#f7f7f5" },
  { zh: "灰色", en: "Grey", hex: "#8e9196" },
  { zh: "红色", en: "Red", hex: "#b3262e" },
  { zh: "蓝色", en: "Blue", hex: "#2c5fb3" },
  { zh: "绿色", en: "Green", hex: "#3f7a4a" },
  { zh: "粉色", en: "Pink", hex: "#e58fb0" },
  { zh: "紫色", en: "Purple", hex: "#6a3d9a" },
  { zh: "黄色", en: "Yellow", hex: "#f2d23c" },
  { zh: "棕色", en: "Brown", hex: "#6b4a33" },
  { zh: "黑", en: "Black", hex: "#1c1c1e" },
  { zh: "白", en: "White", hex: "#f7f7f5" },
  { zh: "灰", en: "Grey", hex: "#8e9196" },
];

export const GENDER_TERMS: [string, "menswear" | "womenswear" | "both"][] = [
  ["男女同款", "both"],
  ["情侣款", "both"],
  ["中性", "both"],
  ["通用", "both"],
  ["男士", "menswear"],
  ["男装", "menswear"],
  ["男款", "menswear"],
  ["女士", "womenswear"],
  ["女装", "womenswear"],
  ["女款", "womenswear"],
  ["男", "menswear"],
  ["女", "womenswear"],
];

/** Words a title carries for the marketplace's search, not for a shopper. */
export const NOISE_TERMS = [
  "2026秋冬新款",
  "2026春夏新款",
  "2025秋冬新款",
  "新款",
  "爆款",
  "包邮",
  "百搭",
  "潮流",
  "潮牌",
  "ins风",
  "ins潮",
  "高级感",
  "显瘦",
  "简约",
  "日系",
  "韩版",
  "复古",
  "秋冬",
  "春夏",
  "春秋",
  "正品",
  "官方",
  "旗舰店",
  "同款",
  "现货",
  "清仓",
  "特价",
  "上衣",
];

/** Style words kept as tags. */
export const STYLE_TERMS: [string, string][] = [
  ["日系", "japanese-style"],
  ["韩版", "korean-style"],
  ["复古", "vintage"],
  ["简约", "minimalist"],
  ["通勤", "workwear"],
  ["街头", "streetwear"],
  ["工装", "utility"],
  ["法式", "french"],
  ["学院", "preppy"],
];

export const SEASON_TERMS: [string, string][] = [
  ["秋冬", "autumn-winter"],
  ["春夏", "spring-summer"],
  ["春秋", "spring-autumn"],
  ["夏季", "summer"],
  ["冬季", "winter"],
  ["秋季", "autumn"],
  ["春季", "spring"],
];

/** SKU property names → the store's option names. */
export const PROPERTY_NAMES: [RegExp, "Color" | "Size" | string][] = [
  [/^(颜色分类|颜色|主要颜色|色系|颜色分类\s*)$/, "Color"],
  [/^(尺码|尺寸|大小|服装尺码|裤子尺码|腰围|上衣尺码|裙子尺码|参考尺码|鞋码)$/, "Size"],
  [/^(款式|版本|类别|款式分类)$/, "Style"],
  [/^(袖长)$/, "Sleeve"],
  [/^(裤长)$/, "Length"],
];

/** Values of secondary properties (款式…). */
export const VALUE_TERMS: [string, string][] = [
  ["常规款", "Regular"],
  ["加绒款", "Fleece-Lined"],
  ["加厚款", "Thick"],
  ["薄款", "Light"],
  ["短袖", "Short Sleeve"],
  ["长袖", "Long Sleeve"],
  ["九分", "Ankle Length"],
  ["长款", "Long"],
  ["短款", "Short"],
  ["均码", "One Size"],
];

/** Chinese height/chest codes ("170/88A") to letter sizes. */
export const HEIGHT_CODES: [number, string][] = [
  [150, "XXS"],
  [155, "XS"],
  [160, "S"],
  [165, "M"],
  [170, "L"],
  [175, "XL"],
  [180, "XXL"],
  [185, "XXXL"],
];

/** Item attributes (props) to English section names. */
export const ATTRIBUTE_NAMES: [string, string][] = [
  ["材质成分", "Composition"],
  ["面料材质", "Fabric"],
  ["面料", "Fabric"],
  ["材质", "Material"],
  ["里料", "Lining"],
  ["洗涤说明", "Care"],
  ["厚薄", "Weight"],
  ["版型", "Fit"],
  ["适用性别", "Gender"],
  ["适用季节", "Season"],
  ["风格", "Style"],
  ["品牌", "Brand"],
  ["货号", "Style number"],
];

export const WEIGHT_TERMS: [string, string][] = [
  ["常规", "Regular"],
  ["加厚", "Thick"],
  ["薄款", "Light"],
  ["适中", "Medium"],
  ["超薄", "Very light"],
];

export const CARE_TERMS: [string, string][] = [
  ["手洗", "Hand wash"],
  ["机洗", "Machine wash"],
  ["不可漂白", "do not bleach"],
  ["干洗", "Dry clean"],
  ["低温熨烫", "iron low"],
  ["不可机洗", "do not machine wash"],
  ["平铺晾干", "dry flat"],
  ["悬挂晾干", "line dry"],
  ["30度以下水洗", "Wash below 30°C"],
  ["冷水", "cold"],
];
