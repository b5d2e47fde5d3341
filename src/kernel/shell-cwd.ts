import { shellQuote } from "../exec/shell-quote.js";

/**
 * The shell always starts in "/" whatever cwd it is spawned with (guest-abi §3), so a shell started in
 * another directory is told to go there first: `sh -c SCRIPT` runs `cd -- CWD || exit 1` before SCRIPT, and
 * `sh FILE ARGS` becomes `sh -c 'cd -- CWD || exit 1; . FILE "$@"' FILE ARGS`. An interactive shell or a
 * script read from stdin is left as it is.
 */
export function startShellIn(argv: readonly string[], cwd: string): string[] {
  const out = [...argv];
  if (cwd === "/") return out;
  const enter = scriptIn(cwd, "");
  let command = false;
  let i = 1;
  for (; i < out.length; i++) {
    const arg = out[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-o" || arg === "+o") {
      i++; // its value
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(arg)) break;
    if (arg.startsWith("-") && arg.includes("c")) command = true;
    if (arg.startsWith("-") && arg.includes("s")) return out; // script from stdin
  }
  if (i >= out.length) return out;
  if (command) {
    out[i] = scriptIn(cwd, out[i]!);
    return out;
  }
  const file = out[i]!;
  const source = file.includes("/") ? file : `./${file}`;
  return [...out.slice(0, i), "-c", `${enter}. ${shellQuote(source)} "$@"`, ...out.slice(i)];
}

/** What `sh -c SCRIPT` started in `cwd` runs. */
export function scriptIn(cwd: string, script: string): string {
  return cwd === "/" ? script : `cd -- ${shellQuote(cwd)} || exit 1\n${script}`;
}
