import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

const SPECS = [
  ..."dflcpsu".split("").map((c) => ({ key: c, short: c })),
  { key: "silent", long: "silent" },
  { key: "logical", long: "logical" },
  { key: "no-pause", long: "no-pause" },
  { key: "print-over", long: "print-over" },
  { key: "clean-print", long: "clean-print" },
  { key: "squeeze", long: "squeeze" },
  { key: "plain", long: "plain" },
  { key: "n", short: "n", long: "lines", arg: "required" as const },
  { key: "help", short: "h", long: "help" },
  { key: "version", short: "V", long: "version" },
];

const HELP = `
Usage:
 more [options] <file>...

A file perusal filter for CRT viewing.

Options:
 -d, --silent          display help instead of ringing bell
 -f, --logical         count logical rather than screen lines
 -l, --no-pause        suppress pause after form feed
 -c, --print-over      do not scroll, display text and clean line ends
 -p, --clean-print     do not scroll, clean screen and display text
 -s, --squeeze         squeeze multiple blank lines into one
 -u, --plain           suppress underlining and bold
 -n, --lines <number>  the number of lines per screenful
 -<number>             same as --lines
 +<number>             display file beginning from line number
 +/<pattern>           display file beginning from pattern match

 -h, --help            display this help
 -V, --version         display version
`;

const BANNER = "::::::::::::::";

/**
 * util-linux more when its output is not a terminal (nothing is in the VM): it copies what it reads. A
 * stdin that is not a terminal is copied first; each file then follows under a `::::` banner with its
 * name when there are several, or when stdin is not a terminal (util-linux 2.38 does so for one file too).
 * A file that cannot be opened is reported and skipped, and more still ends with 0, as util-linux does.
 */
export default function more({ sys, argv, stdout, stderr }: ScriptProcess): number {
  // -NUM and +NUM/+/PATTERN only steer the pager.
  const args = argv.slice(1).filter((a) => !/^-\d+$/.test(a) && !a.startsWith("+"));
  let parsed;
  try {
    parsed = getopt(args, SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`more: ${e.message}\nTry 'more --help' for more information.\n`);
    return 1;
  }
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write(HELP), 0;
    if (o.key === "version") return stdout.write(versionText("more", "util-linux 2.38.1")), 0;
  }
  const files = parsed.operands;
  const stdinIsTerminal = sys.isatty(0);
  if (!stdinIsTerminal) stdout.write(sys.readAll(0));
  for (const file of files) {
    try {
      if (sys.stat(file).kind === "dir") {
        stdout.write(`\n*** ${file}: directory ***\n\n`);
        continue;
      }
      const data = sys.readFile(file);
      if (files.length > 1 || !stdinIsTerminal) stdout.write(`${BANNER}\n${file}\n${BANNER}\n`);
      stdout.write(data);
    } catch (e) {
      stderr.write(`more: cannot open ${file}: ${strerror(e)}\n`);
    }
  }
  return 0;
}
