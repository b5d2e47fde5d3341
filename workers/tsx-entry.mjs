// Worker entry when the runtime runs from its TypeScript sources (tests, demo): compiles on the fly.
// The built package points its pool at dist/workers/process-host.js instead.
import { register } from "tsx/esm/api";

register();
const host = await import("./process-host.ts");
export default host.default;
