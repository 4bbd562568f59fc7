/** "Complete the look" as its own chunk: product page and modal load it when they render it (inside a Suspense). */
import { lazyComponent } from "../lib/lazy-component";

export const CompleteTheLookLazy = lazyComponent(async () => (await import("./CompleteTheLook")).CompleteTheLook);
