/** The walk: each starting point and what is below it, in the kernel's directory order, as GNU find visits them. */
import { errorText } from "./context.js";
import type { Stat } from "../../system.js";
import { Entry, type Find } from "./context.js";
import type { Test } from "./predicates.js";

interface Ancestor {
  dev: number;
  ino: number;
  path: string;
}

export function walk(f: Find, starts: readonly string[], test: Test): void {
  for (const start of starts) {
    if (f.quit) break;
    if (start === "") {
      f.error(`${f.q("")}: No such file or directory`);
      continue;
    }
    // A trailing slash makes even lstat follow a link (to a directory).
    const follow = f.symlinks !== "P" || /[^/]\/+$/.test(start);
    let st: Stat;
    try {
      st = f.sys.stat(start, follow);
    } catch (e) {
      // A dangling link given with -L or -H is the link itself.
      let lst: Stat | undefined;
      if (follow) {
        try {
          lst = f.sys.stat(start, false);
        } catch {
          // reported below
        }
      }
      if (!lst) {
        f.error(`${f.q(start)}: ${errorText(e)}`);
        continue;
      }
      st = lst;
    }
    // A starting point ending in / must be a directory.
    if (/[^/]\/+$/.test(start) && st.kind !== "dir") {
      f.error(`${f.q(start)}: Not a directory`);
      continue;
    }
    const e = new Entry(f, start, start, 0, undefined);
    e.setStat(st, follow);
    if (!follow) e.kind = st.kind;
    visit(f, e, test);
  }
}

function evaluate(f: Find, e: Entry, test: Test): void {
  if (e.depth < f.minDepth) return;
  f.prune = false;
  test(e);
}

/** A directory being walked: the names in it still to visit, and whether it put an ancestor on the chain. */
interface Level {
  e: Entry;
  names: Array<{ name: string; kind: Entry["kind"] }>;
  next: number;
  chained: boolean;
}

/**
 * `top` and everything below it, depth first, as fts walks: an explicit stack of the directories on the
 * way down instead of recursion, so that no tree is too deep for the worker's stack (the VM lets a tree
 * grow as deep as limits.maxPathBytes allows). `chain` holds the directories on the way down whose
 * device and inode are known (with -L, -H or -xdev), for loop and file-system checks.
 */
function visit(f: Find, top: Entry, test: Test): void {
  const levels: Level[] = [];
  const chain: Ancestor[] = [];
  /** An entry: evaluated now (before what is below it, unless -depth), and entered when it is a directory to go into. */
  const begin = (e: Entry): void => {
    const isDir = e.type() === "d";
    let own: Ancestor | undefined;
    if (isDir && (f.symlinks !== "P" || f.xdev)) {
      const st = e.stat();
      if (st) {
        // A directory that is one of its own ancestors (through links) is reported, not visited (fts's FTS_DC).
        const loop = f.symlinks !== "P" ? chain.find((a) => a.dev === st.dev && a.ino === st.ino) : undefined;
        if (loop) {
          f.error(`File system loop detected; ${f.q(e.path)} is part of the same file system loop as ${f.q(loop.path)}.`);
          return;
        }
        own = { dev: st.dev, ino: st.ino, path: e.path };
      }
    }
    if (!f.depthFirst) {
      evaluate(f, e, test);
      if (f.quit || f.prune) return;
    }
    // -xdev: not below a directory on another file system than the starting point.
    const first = chain[0] ?? own;
    const last = own ?? chain[chain.length - 1];
    const crossed = f.xdev && chain.length + (own ? 1 : 0) > 1 && last!.dev !== first!.dev;
    if (isDir && e.depth < f.maxDepth && !crossed) {
      try {
        levels.push({ e, names: f.sys.readdir(e.path), next: 0, chained: own !== undefined });
        if (own) chain.push(own);
        return;
      } catch (err) {
        f.error(`${f.q(e.path)}: ${errorText(err)}`);
      }
    }
    if (f.quit) return;
    if (f.depthFirst) evaluate(f, e, test);
  };
  begin(top);
  while (levels.length > 0 && !f.quit) {
    const level = levels[levels.length - 1]!;
    const next = level.names[level.next++];
    if (next) {
      const dir = level.e;
      const prefix = dir.path.endsWith("/") ? dir.path : `${dir.path}/`;
      begin(new Entry(f, prefix + next.name, dir.start, dir.depth + 1, next.kind, next.name));
      continue;
    }
    levels.pop();
    if (level.chained) chain.pop();
    if (f.depthFirst) evaluate(f, level.e, test);
  }
}
