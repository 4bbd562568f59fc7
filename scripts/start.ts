/**
 * `npm start`: build what is stale, then start the one server (embedded database, demo data on
 * first start, worker). `--rebuild` forces a build.
 */
import { ensureBuild } from "./lib/build";

ensureBuild({ force: process.argv.includes("--rebuild") });
const { main } = await import("../server");
await main();
