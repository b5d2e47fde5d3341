import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { HOOK_DEADLINE_MS, TEST_DEADLINE_MS } from "./test/deadlines.js";
import { LongestFirst } from "./test/longest-first.js";

// `core` is the README's test command: the API, kernel, commands and guest runtime, quick enough to run on every
// change. The rest are projects of their own, each a command that `.ci/run` also runs:
// - the reference suites compare the VM with a reference on this machine at scale (the host's `node`, GNU tools,
//   bash), each running hundreds of guest and host processes (`pnpm test:reference`);
// - the attacks take the VM to its limits with the default sizes: gigabytes requested, floods, process storms,
//   each measured against the host's RSS (`pnpm test:attacks`);
// - the package test packs the tarball and installs it with its peers from the npm registry, and the examples run
//   as a user runs them (`pnpm test:package`).
const NODE_REFERENCE = ["test/node/node.differential.test.ts", "test/node/web-globals.test.ts", "test/node/packages.test.ts", "test/node/primordials.test.ts", "test/npm.test.ts"];
const USERLAND_REFERENCE = [
  "test/tools.differential.test.ts",
  "test/git.differential.test.ts",
  "test/git-http.differential.test.ts",
  "test/python.differential.test.ts",
  "test/python-pytest.differential.test.ts",
  "test/sqlite3.differential.test.ts",
  "test/make.differential.test.ts",
  "test/yq.differential.test.ts",
  "test/hexdump.differential.test.ts",
  "test/envsubst.differential.test.ts",
  "test/less.differential.test.ts",
  "test/iconv.differential.test.ts",
  "test/patch.differential.test.ts",
  "test/openssl.differential.test.ts",
  "test/xz.differential.test.ts",
  "test/bzip2.differential.test.ts",
  "test/zstd.differential.test.ts",
  "test/zip.differential.test.ts",
  "test/diff3.differential.test.ts",
  "test/curl.differential.test.ts",
  "test/wget.differential.test.ts",
  "test/free.differential.test.ts",
  "test/cal.differential.test.ts",
  "test/watch.differential.test.ts",
  "test/nc.differential.test.ts",
  "test/lsof.differential.test.ts",
  "test/service/search.test.ts",
  "test/service/small-tools.test.ts",
  "test/service/diff.test.ts",
  "test/sort.differential.test.ts",
  "test/sort.spill.test.ts",
  "test/chmod.differential.test.ts",
  "test/oils-spec.test.ts",
  "test/shell-fuzz.test.ts",
];
const ATTACKS = ["test/adversarial.test.ts", "test/node/memory.test.ts", "test/node/limits.test.ts"];
// The core files whose outcome can depend on the Node version the host runs: guest node (its API is compared with
// the host's), the WASI host (compared with Node's own WASI), what uses Node-version-specific host API (CPU
// clocks, memory limits, the CLI and adapters' dependencies), and the API's own paths. The kernel's, the shell's
// and the userland's files run the same WebAssembly through the same paths on any Node: `.ci/run` runs them on
// Node 20 only, and this project again on Node 24.
const NODE_DEPENDENT = [
  "test/node/**/*.test.ts",
  "test/node-guest/**/*.test.ts",
  "test/service/node.test.ts",
  "test/wasi-*.test.ts",
  "test/api.test.ts",
  "test/smoke.test.ts",
  "test/exec-path.test.ts",
  "test/event-loop.test.ts",
  "test/inherited-fds.test.ts",
  "test/limits-memory.test.ts",
  "test/memory-import.unit.test.ts",
  "test/cli.test.ts",
  "test/adapters.*.test.ts",
  "test/vm-fetch.test.ts",
  "test/net-api.test.ts",
  "test/layers.test.ts",
  "test/mounts*.test.ts",
];
const PACKAGE = ["test/package.test.ts", "test/examples.test.ts"];
// core, node-dependent and userland-reference run their files one after another in shared processes
// (`isolate: false`): a file then finds the package loaded, its WebAssembly compiled and its workers started by
// the files before it, which is most of what a short file costs. These files need a process of their own: they
// set the host's environment that the package or its workers read once, as they load (AGENTOS_TRACE,
// AGENTOS_TEST_EXPOSE_RUNTIME), or measure the host process's peak RSS.
const OWN_PROCESS = ["test/node/escape*.test.ts", "test/node/idle.test.ts", "test/node/net.test.ts", "test/node/http.test.ts", "test/limits-memory.test.ts"];
// Public projects' own test suites, installed from the npm registry into a cache, in the guest node and the host's.
const REAL_PROJECTS = ["test/node/real-projects.differential.test.ts"];

export default defineConfig({
  test: {
    // Deadlines for hangs only (test/deadlines.ts): a loaded 2-core machine runs the suite several times slower.
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: HOOK_DEADLINE_MS,
    // vitest's default leaves a core free; much of a VM test is waiting on its own threads, so use them all.
    maxWorkers: availableParallelism(),
    // The longest files first across the projects of a run, not project by project (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // What each file registers for itself (test/setup.ts), also where files share a process.
    setupFiles: ["test/setup.ts"],
    projects: [
      { extends: true, test: { name: "core", isolate: false, include: ["test/**/*.test.ts"], exclude: [...NODE_REFERENCE, ...USERLAND_REFERENCE, ...ATTACKS, ...PACKAGE, ...OWN_PROCESS, ...REAL_PROJECTS] } },
      { extends: true, test: { name: "own-process", include: OWN_PROCESS } },
      { extends: true, test: { name: "node-dependent", isolate: false, include: NODE_DEPENDENT, exclude: [...NODE_REFERENCE, ...ATTACKS, ...PACKAGE, ...OWN_PROCESS, ...REAL_PROJECTS] } },
      { extends: true, test: { name: "node-reference", include: NODE_REFERENCE } },
      { extends: true, test: { name: "userland-reference", isolate: false, include: USERLAND_REFERENCE } },
      { extends: true, test: { name: "attacks", include: ATTACKS } },
      { extends: true, test: { name: "package", include: PACKAGE } },
      { extends: true, test: { name: "real-projects", include: REAL_PROJECTS } },
    ],
  },
});
