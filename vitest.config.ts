import { defineConfig } from "vitest/config";
import { HOOK_DEADLINE_MS, TEST_DEADLINE_MS } from "./test/deadlines.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Deadlines for hangs only (test/deadlines.ts): a loaded 2-core machine runs the suite several times slower.
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: HOOK_DEADLINE_MS,
  },
});
