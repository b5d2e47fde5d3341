import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// GNU gettext 0.21's envsubst: standard input to standard output with `$NAME` and `${NAME}` replaced by the
// environment's value (nothing for an unset one). With a SHELL-FORMAT only the names it mentions are replaced;
// every other reference stays as written. `-v` lists the names SHELL-FORMAT mentions, in order, repeats
// included. Works on bytes, as the C program does: a name is ASCII letters, digits and `_`, not starting
// with a digit; `${NAME` without its `}` is not a reference.

const SPECS = [
  { key: "h", short: "h", long: "help" },
  { key: "v", short: "v", long: "variables" },
  { key: "V", short: "V", long: "version" },
];

const HELP = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or \${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.

Report bugs in the bug tracker at <https://savannah.gnu.org/projects/gettext>
or by email to <bug-gettext@gnu.org>.
`;

const isStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isName = (c: number): boolean => isStart(c) || (c >= 48 && c <= 57);

/** The names referenced in `format` (latin1: one char a byte), as gettext's find_variables finds them. */
export function referencedNames(format: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < format.length; ) {
    if (format.charCodeAt(i++) !== 36) continue;
    const brace = format.charCodeAt(i) === 123;
    if (brace) i++;
    const start = i;
    if (!isStart(format.charCodeAt(i))) continue;
    while (isName(format.charCodeAt(i))) i++;
    const end = i;
    if (brace) {
      if (format.charCodeAt(i) !== 125) continue;
      i++;
    }
    names.push(format.slice(start, end));
  }
  return names;
}

/** `text` (latin1) with its references replaced; `only`: the names that may be (all when undefined). */
export function substitute(text: string, env: Readonly<Record<string, string>>, only: ReadonlySet<string> | undefined): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf("$", i);
    if (dollar < 0) break;
    out += text.slice(i, dollar);
    i = dollar + 1;
    const brace = text.charCodeAt(i) === 123;
    if (brace) i++;
    if (!isStart(text.charCodeAt(i))) {
      out += brace ? "${" : "$";
      continue;
    }
    const start = i;
    while (isName(text.charCodeAt(i))) i++;
    const name = text.slice(start, i);
    const closed = brace && text.charCodeAt(i) === 125;
    if (closed) i++;
    if ((brace && !closed) || (only && !only.has(name))) out += (brace ? "${" : "$") + name + (closed ? "}" : "");
    else out += Buffer.from(env[name] ?? "", "utf8").toString("latin1");
  }
  return out + text.slice(i);
}

export default function envsubst({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`envsubst: ${e.message}\nTry 'envsubst --help' for more information.\n`);
    return 1;
  }
  let variables = false;
  for (const o of parsed.options) {
    if (o.key === "h") return stdout.write(HELP), 0;
    if (o.key === "V") return stdout.write(versionText("envsubst", "GNU gettext-runtime 0.21")), 0;
    if (o.key === "v") variables = true;
  }
  const operands = parsed.operands;
  if (operands.length > 1) return stderr.write("envsubst: too many arguments\n"), 1;
  if (variables && operands.length === 0) return stderr.write("envsubst: missing arguments\n"), 1;
  // The format and the input are bytes to the C program; latin1 keeps each byte one char through the scan.
  const format = operands[0] === undefined ? undefined : Buffer.from(operands[0], "utf8").toString("latin1");
  if (variables) {
    for (const name of referencedNames(format!)) stdout.write(`${name}\n`);
    return 0;
  }
  const only = format === undefined ? undefined : new Set(referencedNames(format));
  const input = Buffer.from(sys.readAll(0)).toString("latin1");
  stdout.write(Buffer.from(substitute(input, sys.env, only), "latin1"));
  return 0;
}
