import type { ScriptProcess } from "../script-host.js";
import { chownMain } from "./chown-core.js";

/** GNU chgrp for the VM's one user (chown-core.ts). */
export default (p: ScriptProcess): number => chownMain(p, "chgrp");
