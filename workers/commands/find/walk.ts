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
    visit(f, e, test, []);
  }
}

function evaluate(f: Find, e: Entry, test: Test): void {
  if (e.depth < f.minDepth) return;
  f.prune = false;
  test(e);
}

function visit(f: Find, e: Entry, test: Test, ancestors: Ancestor[]): void {
  const isDir = e.type() === "d";
  let below = ancestors;
  if (isDir && (f.symlinks !== "P" || f.xdev)) {
    const st = e.stat();
    if (st) {
      // A directory that is one of its own ancestors (through links) is reported, not visited (fts's FTS_DC).
      const loop = f.symlinks !== "P" ? ancestors.find((a) => a.dev === st.dev && a.ino === st.ino) : undefined;
      if (loop) {
        f.error(`File system loop detected; ${f.q(e.path)} is part of the same file system loop as ${f.q(loop.path)}.`);
        return;
      }
      below = [...ancestors, { dev: st.dev, ino: st.ino, path: e.path }];
    }
  }
  if (!f.depthFirst) {
    evaluate(f, e, test);
    if (f.quit || f.prune) return;
  }
  if (isDir && e.depth < f.maxDepth && !(f.xdev && below.length > 1 && below[below.length - 1]!.dev !== below[0]!.dev)) descend(f, e, test, below);
  if (f.quit) return;
  if (f.depthFirst) evaluate(f, e, test);
}

function descend(f: Find, e: Entry, test: Test, below: Ancestor[]): void {
  let names;
  try {
    names = f.sys.readdir(e.path);
  } catch (err) {
    f.error(`${f.q(e.path)}: ${errorText(err)}`);
    return;
  }
  const prefix = e.path.endsWith("/") ? e.path : `${e.path}/`;
  const depth = e.depth + 1;
  for (const { name, kind } of names) {
    const child = new Entry(f, prefix + name, e.start, depth, kind, name);
    visit(f, child, test, below);
    if (f.quit) return;
  }
}
