// Worker entry when the runtime runs from its TypeScript sources (tests, demo): compiles on the fly.
// The built package starts dist/workers/node-host/runtime.js instead.
import { register } from "tsx/esm/api";

register();
await import("./runtime.ts");
