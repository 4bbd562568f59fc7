/**
 * Zod compiles object parsers with `new Function` when it can. The storefront's Content-Security-Policy
 * has no 'unsafe-eval', so zod's probe for it was reported as a CSP violation in every browser console
 * (and by Lighthouse) although zod catches the throw. Jitless mode skips the probe; the storefront's
 * parses are small, so the interpreted path costs nothing noticeable.
 *
 * Zod keeps its configuration on `globalThis.__zod_globalConfig` (shared by every copy of zod on a
 * page) and reads it when it loads; setting it here, first in main.tsx, keeps zod itself out of the
 * first-load bundle (importing `config` from zod's core would add ≈ 11 KB to it).
 * tests/unit/zod-csp.test.ts checks that zod sees it.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
