/**
 * Writes the demo Taobao catalogue to items.json beside this file:
 * `npx tsx prisma/demo/taobao/write-items.ts`. Deterministic (see ./catalogue.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildTaobaoDemoCatalogue } from "./catalogue";

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "items.json");
const catalogue = buildTaobaoDemoCatalogue();
fs.writeFileSync(file, `${JSON.stringify(catalogue, null, 1)}\n`);
console.log(`${catalogue.items.length} items (${Object.keys(catalogue.broken).length} broken on purpose), ${Object.keys(catalogue.images).length} images → ${path.relative(process.cwd(), file)}`);
