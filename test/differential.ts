import { expect } from "vitest";
import type { AgentOs, AgentOsOptions, ExecOptions } from "../src/index.js";
import { createVm as createOneVm } from "./helpers.js";

/** API calls that change a VM's state: the twin gets them too. */
const MUTATORS = new Set(["writeFile", "writeFiles", "mkdir", "move", "delete", "chmod"]);
/** Commands the router hands to a fresh process by design (see ExecRouter.exportsIfRoutable). */
const FRESH_BY_DESIGN = /LINENO|BASH_SUBSHELL|\$\{?-|(^|[^&<>|])&(?![&>])/;

/**
 * A VM for the service suites that runs every exec twice: through the exec router, and in a fresh
 * `sh -c` on a twin VM that received the same file-system calls. Stdout, stderr and exit code must be
 * identical, byte for byte, and the routed run must really have been routed.
 */
export async function createVm(options: AgentOsOptions = {}): Promise<AgentOs> {
  const routed = await createOneVm({ ...options, execRouter: true });
  const fresh = await createOneVm({ ...options, execRouter: false });
  return new Proxy(routed, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (prop === "exec") {
        return async (command: string, opts?: ExecOptions) => {
          const before = routed.stats().router.routed;
          const a = await routed.exec(command, opts);
          const b = await fresh.exec(command, opts);
          expect(a, `routed and fresh results of ${JSON.stringify(command)}`).toEqual(b);
          if (!FRESH_BY_DESIGN.test(command)) expect(routed.stats().router.routed, "routed").toBe(before + 1);
          return a;
        };
      }
      if (typeof prop === "string" && MUTATORS.has(prop)) {
        return async (...args: unknown[]) => {
          const r = await method.apply(target, args);
          await (Reflect.get(fresh, prop) as (...a: unknown[]) => unknown).apply(fresh, args);
          return r;
        };
      }
      return method.bind(target);
    },
  });
}

