import type { ScriptProcess } from "../script-host.js";
import { Find, FindError } from "./find/context.js";
import { parseCommandLine } from "./find/parse.js";
import { walk } from "./find/walk.js";
import { versionText } from "../../src/gnu/version.js";

const HELP = `Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:
operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2
positional options (always true): -daystart -follow -nowarn -regextype -warn
normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race
tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -context CONTEXT
      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN
      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]
actions: -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;
`;

/**
 * GNU find (findutils 4.9): walks each starting point (default ".") and evaluates the expression for
 * every file, in the kernel's directory order. Exits 1 when a file could not be reached or an -exec … +
 * command failed.
 */
export default function find({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const f = new Find(sys, stdout, stderr);
  const args = argv.slice(1);
  if (args.includes("--help") || args.includes("-help")) {
    const i = args.findIndex((a) => a === "--help" || a === "-help");
    if (args.slice(0, i).every((a) => !a.startsWith("-") || /^-[HLP]$/.test(a))) return stdout.write(HELP), 0;
  }
  if (args[0] === "--version" || args[0] === "-version") return stdout.write(versionText("find", "GNU findutils 4.9.0")), 0;
  f.warnings = sys.isatty(0);
  let command;
  try {
    command = parseCommandLine(f, args);
  } catch (e) {
    if (!(e instanceof FindError)) throw e;
    f.flushAll();
    stderr.write(`find: ${e.message}\n`);
    return 1;
  }
  try {
    walk(f, command.starts, command.test);
  } finally {
    for (const finish of f.finishers) finish();
    f.flushAll();
    for (const [, out] of f.files) {
      try {
        sys.close(out.fd);
      } catch {
        // already closed
      }
    }
  }
  return f.status;
}
