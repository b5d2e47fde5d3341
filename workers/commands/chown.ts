import type { ScriptProcess } from "../script-host.js";
import { chownMain } from "./chown-core.js";

/** GNU chown for the VM's one user (chown-core.ts). */
export default (p: ScriptProcess): number => chownMain(p, "chown");
