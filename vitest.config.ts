import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Three projects: unit (pure modules), integration (a fresh database per test file: PGlite by
 * default, PostgreSQL when TEST_DATABASE_URL is set) and e2e (the built server in Chromium).
 *
 * Test files run two at a time even on two cores (vitest's default there is one): a file
 * spends much of its time waiting (PostgreSQL, timers, child processes), and one worker left the
 * second core idle for half of CI. TEST_WORKERS overrides it.
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, (os.availableParallelism?.() ?? os.cpus().length) - 1);
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Per-project worker counts are not configurable (only isolate / singleFork): e2e keeps one by singleFork.
    maxWorkers: workers,
    minWorkers: 1,
    reporters: process.env.VITEST_JSON_OUT ? ["default", ["json", { outputFile: process.env.VITEST_JSON_OUT }]] : ["default"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          globalSetup: ["tests/helpers/integration-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          env: { NODE_ENV: "test", LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.{ts,tsx}"],
          globalSetup: ["tests/helpers/e2e-global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 240_000,
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
