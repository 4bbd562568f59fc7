/**
 * Flags of `npm run bench -- [flags]`.
 */
export const SECTIONS = ["startup", "api", "cart", "search", "recs", "photo", "throughput", "import", "fal", "tryon", "orders", "vendor", "lighthouse"] as const;
export type Section = (typeof SECTIONS)[number];
const GROUPS: Record<string, Section[]> = {
  embedded: ["startup", "api", "cart"],
  discovery: ["search", "recs", "photo", "throughput"],
  all: [...SECTIONS],
  relevance: ["search"],
  recommendations: ["recs"],
  vision: ["photo"],
  taobao: ["import"],
  storefront: ["lighthouse"],
};

export interface BenchArgs {
  sections: Set<Section>;
  products: number;
  queries: number;
  connections: number;
  duration: number;
  verbose: boolean;
  /** HTTP server of the throughput run: server.ts on the build, the API handler alone, or auto. */
  server: "auto" | "build" | "api";
  /** Taobao items per run of the import benchmark, and the worker counts of its runs. */
  importItems: number;
  importWorkers: number[];
  /** Orders generated for the order search benchmark. */
  orders: number;
  /** View events generated for the vendor dashboard benchmark. */
  views: number;
}

export const USAGE = `npm run bench -- [flags]

  --only=<sections>    comma-separated: ${SECTIONS.join(", ")}
                       (groups: embedded = startup,api,cart; discovery = search,recs,photo,throughput; taobao = import)
  --products=<n>       size of the generated catalogue (default 20000; e.g. 2000 for a quick check)
  --queries=<n>        mixed search queries timed in-process (default 200)
  --connections=<n>    concurrent HTTP clients of the throughput run (default 32)
  --duration=<s>       seconds of the throughput run (default 15)
  --server=<mode>      throughput server: auto (default: server.ts when build/ is up to date,
                       else Express with the API handler), build, or api
  --import-items=<n>   Taobao items per run of the import benchmark (default 100)
  --import-workers=<l> worker counts of its runs, comma-separated (default 1,2,4)
  (cart: add-to-cart latency in-process on the local Storefront, target p95 ≤ 50 ms)
  (fal: adapter overhead per request against a local fake of fal's queue; --queries=<n> requests)
  (tryon: local CPU try-on latency warm/cold, clone photo preprocessing, peak RSS; 5 warm runs)
  --orders=<n>         orders generated for the order search benchmark (default 100000)
  (orders: admin order search p95 on PostgreSQL, target ≤ 50 ms)
  --views=<n>          view events generated for the vendor dashboard benchmark (default 5000000)
  (vendor: vendor dashboard endpoints p95 on PostgreSQL from product_daily_stats, target ≤ 50 ms;
   --queries=<n> calls of each kind)
  (lighthouse: the built storefront in Debian's Chromium, mobile preset, median of 3 per page (home,
   search, product, store): performance, accessibility, best practices, SEO, LCP/TBT/CLS and the
   page's first-load JavaScript (brotli); --only=storefront)
  --verbose            print the score of every labelled query
  --help               this text`;

export function parseArgs(argv: string[]): BenchArgs | { help: true } | { error: string } {
  const out: BenchArgs = { sections: new Set(SECTIONS), products: 20_000, queries: 200, connections: 32, duration: 15, verbose: false, server: "auto", importItems: 100, importWorkers: [1, 2, 4], orders: 100_000, views: 5_000_000 };
  const int = (name: string, v: string, min: number, max: number) => {
    const n = Number(v.replace(/_/g, ""));
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer between ${min} and ${max}`);
    return n;
  };
  try {
    for (const arg of argv) {
      const [flag, value = ""] = arg.split(/=(.*)/s, 2);
      switch (flag) {
        case "--help":
        case "-h":
          return { help: true };
        case "--only": {
          const chosen = new Set<Section>();
          for (const name of value.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)) {
            const group = GROUPS[name] ?? ((SECTIONS as readonly string[]).includes(name) ? [name as Section] : null);
            if (!group) throw new Error(`unknown section "${name}" (sections: ${SECTIONS.join(", ")}; groups: ${Object.keys(GROUPS).join(", ")})`);
            group.forEach((s) => chosen.add(s));
          }
          if (chosen.size === 0) throw new Error("--only needs at least one section");
          out.sections = chosen;
          break;
        }
        case "--products":
          out.products = int("products", value, 100, 200_000);
          break;
        case "--queries":
          out.queries = int("queries", value, 10, 100_000);
          break;
        case "--connections":
          out.connections = int("connections", value, 1, 1000);
          break;
        case "--duration":
          out.duration = int("duration", value, 1, 3600);
          break;
        case "--server":
          if (value !== "auto" && value !== "build" && value !== "api") throw new Error("--server must be auto, build or api");
          out.server = value;
          break;
        case "--import-items":
          out.importItems = int("import-items", value, 1, 5000);
          break;
        case "--import-workers":
          out.importWorkers = value.split(",").map((v) => int("import-workers", v.trim(), 1, 32));
          if (!out.importWorkers.length) throw new Error("--import-workers needs at least one count");
          break;
        case "--orders":
          out.orders = int("orders", value, 1000, 1_000_000);
          break;
        case "--views":
          out.views = int("views", value, 10_000, 50_000_000);
          break;
        case "--verbose":
          out.verbose = true;
          break;
        default:
          throw new Error(`unknown flag ${arg}`);
      }
    }
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  return out;
}
