import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { HOOK_DEADLINE_MS, TEST_DEADLINE_MS } from "./test/deadlines.js";

// The suites compare the VM with a reference on this machine at scale (the host's `node`, GNU tools, bash): each
// runs hundreds of guest processes. They are projects of their own so that the README's test command (`core`)
// stays quick; `pnpm test:reference` runs them and `.ci/run` runs both.
const NODE_REFERENCE = ["test/node/node.differential.test.ts", "test/node/web-globals.test.ts"];
const USERLAND_REFERENCE = [
  "test/tools.differential.test.ts",
  "test/service/search.test.ts",
  "test/service/small-tools.test.ts",
  "test/sort.differential.test.ts",
  "test/chmod.differential.test.ts",
  "test/oils-spec.test.ts",
  "test/shell-fuzz.test.ts",
];

export default defineConfig({
  test: {
    // Deadlines for hangs only (test/deadlines.ts): a loaded 2-core machine runs the suite several times slower.
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: HOOK_DEADLINE_MS,
    // vitest's default leaves a core free; much of a VM test is waiting on its own threads, so use them all.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: "core", include: ["test/**/*.test.ts"], exclude: [...NODE_REFERENCE, ...USERLAND_REFERENCE] } },
      { extends: true, test: { name: "node-reference", include: NODE_REFERENCE } },
      { extends: true, test: { name: "userland-reference", include: USERLAND_REFERENCE } },
    ],
  },
});
