import { existsSync } from "node:fs";
import { join } from "node:path";
import common from "@rivet-dev/agent-os-common";
import fd from "@rivet-dev/agent-os-fd";
import jq from "@rivet-dev/agent-os-jq";
import ripgrep from "@rivet-dev/agent-os-ripgrep";
import tree from "@rivet-dev/agent-os-tree";
import type { CommandHandler } from "./command.js";
import { sort } from "./sort.js";
import { which } from "./which.js";

/** A command the VM can run, found by the basename of argv[0]. */
export type CommandSpec =
  | {
      kind: "wasm";
      name: string;
      file: string;
      /** The shell resolves its own paths and writes tracing noise to stderr (guest-abi §1, §3). */
      isShell: boolean;
    }
  | { kind: "ts"; name: string; handler: CommandHandler };

interface CommandPackage {
  commands: readonly { name: string; aliasOf?: string }[];
  readonly commandDir: string;
}

const SHELLS = new Set(["sh", "bash"]);

/**
 * Commands the binaries cannot provide, written in TypeScript: `sort` needs threads (guest-abi §1), and
 * no published package has `which`.
 */
const builtinTs: Record<string, CommandHandler> = { sort, which };

function packageCommands(): Map<string, CommandSpec> {
  const specs = new Map<string, CommandSpec>();
  const single = [jq, ripgrep, tree, fd] as CommandPackage[];
  for (const pkg of [...(common as readonly CommandPackage[]), ...single]) {
    const dir = pkg.commandDir;
    for (const c of pkg.commands) {
      const file = join(dir, c.aliasOf ?? c.name);
      if (!existsSync(file)) continue;
      specs.set(c.name, { kind: "wasm", name: c.name, file, isShell: SHELLS.has(c.name) });
    }
  }
  return specs;
}

let defaults: Map<string, CommandSpec> | undefined;

/** The commands of one VM: the WebAssembly userland, the TypeScript replacements, then the user's own. */
export class CommandRegistry {
  private readonly specs: Map<string, CommandSpec>;

  constructor(userCommands: Record<string, CommandHandler> = {}) {
    defaults ??= packageCommands();
    this.specs = new Map(defaults);
    for (const [name, handler] of Object.entries({ ...builtinTs, ...userCommands })) {
      if (!/^[A-Za-z0-9_.+-]+$/.test(name)) throw new TypeError(`invalid command name: ${JSON.stringify(name)}`);
      if (typeof handler !== "function") throw new TypeError(`command ${name}: handler must be a function`);
      this.specs.set(name, { kind: "ts", name, handler });
    }
  }

  /** The command named by argv[0] (a name or a path whose basename is the name). */
  resolve(argv0: string): CommandSpec | undefined {
    return this.specs.get(argv0.slice(argv0.lastIndexOf("/") + 1));
  }

  names(): string[] {
    return [...this.specs.keys()].sort();
  }
}
