/**
 * sort's temporary files: the sorted runs it spills when its input does not fit its buffer. They are made
 * in the -T directories in turn ($TMPDIR, or /tmp, without -T), as GNU's mkstemp names them
 * (`DIR/sortXXXXXX`), count against the VM's file system like any file, and are removed when sort ends,
 * fails or is killed.
 */
import { randomBytes } from "node:crypto";
import type { CommandContext, CommandFile } from "../command.js";
import { errorCode, strerror } from "../../gnu/strerror.js";
import { SortError } from "./options.js";

const NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Names tried before giving up on a directory where every one exists already (mkstemp tries many). */
const NAME_TRIES = 100;

/** The directories of -T, or $TMPDIR (even empty, as GNU takes it), or /tmp. */
export function tempDirs(given: readonly string[], env: Readonly<Record<string, string>>): string[] {
  return given.length > 0 ? [...given] : [env["TMPDIR"] ?? "/tmp"];
}

export class TempFiles {
  private readonly names = new Set<string>();
  private next = 0;
  /** Removes every file at once when sort is killed, so none outlives its process. */
  private readonly onKill = (): void => {
    for (const name of this.names) {
      try {
        this.ctx.fs.unlink(name);
      } catch {
        // Killed: there is nobody to tell; a file already gone is what we want anyway.
      }
    }
    this.names.clear();
  };

  constructor(
    private readonly ctx: CommandContext,
    private readonly dirs: readonly string[],
  ) {
    ctx.signal.addEventListener("abort", this.onKill, { once: true });
  }

  /** A new temporary file, open for writing. Throws GNU's "cannot create temporary file in 'DIR'". */
  create(): { name: string; file: CommandFile } {
    const dir = this.dirs[this.next++ % this.dirs.length]!;
    for (let tries = 1; ; tries++) {
      const name = `${dir}/sort${[...randomBytes(6)].map((b) => NAME_CHARS[b % NAME_CHARS.length]).join("")}`;
      try {
        const file = this.ctx.fs.open(name, "wx");
        this.names.add(name);
        return { name, file };
      } catch (e) {
        if (this.ctx.signal.aborted) throw e; // killed: the kill's reason, not a failure to report
        if (errorCode(e) === "EEXIST" && tries < NAME_TRIES) continue;
        throw new SortError(`sort: cannot create temporary file in '${dir}': ${strerror(e)}`);
      }
    }
  }

  /** Removes a file that is no longer needed; one already gone is fine (someone removed it). */
  remove(name: string): void {
    if (!this.names.delete(name)) return;
    try {
      this.ctx.fs.unlink(name);
    } catch (e) {
      if (errorCode(e) !== "ENOENT") throw new SortError(`sort: cannot remove: ${name}: ${strerror(e)}`);
    }
  }

  /** Removes every file left; called once sort is done with them, however it ends. Throws the first failure. */
  removeAll(): void {
    this.ctx.signal.removeEventListener("abort", this.onKill);
    let failure: unknown;
    for (const name of [...this.names]) {
      try {
        this.remove(name);
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
