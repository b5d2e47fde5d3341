/**
 * GNU grep 3.8's command line: getopt_long with grep's option table, plus `-NUM` (digits in one argument
 * make one number; a new argument starts a new one). Messages are glibc's.
 */

export class UsageError extends Error {}

interface Spec {
  key: string;
  short?: string;
  long?: string[];
  arg?: "required" | "optional";
}

const SPECS: Spec[] = [
  { key: "E", short: "E", long: ["extended-regexp"] },
  { key: "F", short: "F", long: ["fixed-strings", "fixed-regexp"] },
  { key: "G", short: "G", long: ["basic-regexp"] },
  { key: "P", short: "P", long: ["perl-regexp"] },
  { key: "X", short: "X", arg: "required" },
  { key: "e", short: "e", long: ["regexp"], arg: "required" },
  { key: "f", short: "f", long: ["file"], arg: "required" },
  { key: "i", short: "i", long: ["ignore-case"] },
  { key: "i", short: "y" },
  { key: "no-ignore-case", long: ["no-ignore-case"] },
  { key: "w", short: "w", long: ["word-regexp"] },
  { key: "x", short: "x", long: ["line-regexp"] },
  { key: "z", short: "z", long: ["null-data"] },
  { key: "s", short: "s", long: ["no-messages"] },
  { key: "v", short: "v", long: ["invert-match"] },
  { key: "V", short: "V", long: ["version"] },
  { key: "help", long: ["help"] },
  { key: "m", short: "m", long: ["max-count"], arg: "required" },
  { key: "b", short: "b", long: ["byte-offset"] },
  { key: "n", short: "n", long: ["line-number"] },
  { key: "line-buffered", long: ["line-buffered"] },
  { key: "H", short: "H", long: ["with-filename"] },
  { key: "h", short: "h", long: ["no-filename"] },
  { key: "label", long: ["label"], arg: "required" },
  { key: "o", short: "o", long: ["only-matching"] },
  { key: "q", short: "q", long: ["quiet", "silent"] },
  { key: "binary-files", long: ["binary-files"], arg: "required" },
  { key: "a", short: "a", long: ["text"] },
  { key: "I", short: "I" },
  { key: "d", short: "d", long: ["directories"], arg: "required" },
  { key: "D", short: "D", long: ["devices"], arg: "required" },
  { key: "r", short: "r", long: ["recursive"] },
  { key: "R", short: "R", long: ["dereference-recursive"] },
  { key: "include", long: ["include"], arg: "required" },
  { key: "exclude", long: ["exclude"], arg: "required" },
  { key: "exclude-from", long: ["exclude-from"], arg: "required" },
  { key: "exclude-dir", long: ["exclude-dir"], arg: "required" },
  { key: "L", short: "L", long: ["files-without-match"] },
  { key: "l", short: "l", long: ["files-with-matches"] },
  { key: "c", short: "c", long: ["count"] },
  { key: "T", short: "T", long: ["initial-tab"] },
  { key: "Z", short: "Z", long: ["null"] },
  { key: "B", short: "B", long: ["before-context"], arg: "required" },
  { key: "A", short: "A", long: ["after-context"], arg: "required" },
  { key: "C", short: "C", long: ["context"], arg: "required" },
  { key: "group-separator", long: ["group-separator"], arg: "required" },
  { key: "no-group-separator", long: ["no-group-separator"] },
  { key: "color", long: ["color", "colour"], arg: "optional" },
  { key: "U", short: "U", long: ["binary"] },
  { key: "u", short: "u", long: ["unix-byte-offsets"] },
];

/** grep.c's long_options order, which glibc's ambiguity message follows. */
const LONG_ORDER =
  "basic-regexp extended-regexp fixed-regexp fixed-strings perl-regexp after-context before-context binary-files byte-offset context color colour count devices directories dereference-recursive exclude exclude-from exclude-dir file files-with-matches files-without-match group-separator help include ignore-case no-ignore-case initial-tab label line-buffered line-number line-regexp max-count no-filename no-group-separator no-messages null null-data only-matching quiet recursive regexp invert-match silent text binary unix-byte-offsets version with-filename word-regexp".split(" ");

export interface Parsed {
  options: Array<{ key: string; value: string | undefined }>;
  operands: string[];
}

/** Options and operands in any order (unless POSIXLY_CORRECT), `--` ends the options. */
export function parseArgs(args: readonly string[], posixlyCorrect: boolean): Parsed {
  const options: Parsed["options"] = [];
  const operands: string[] = [];
  const longs: Array<{ name: string; spec: Spec }> = [];
  for (const name of LONG_ORDER) longs.push({ name, spec: SPECS.find((s) => s.long?.includes(name))! });
  let lastDigitArg = -1;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const exact = longs.find((l) => l.name === name);
      const matches = exact ? [exact] : longs.filter((l) => l.name.startsWith(name));
      if (matches.length === 0) throw new UsageError(`unrecognized option '${arg}'`);
      if (new Set(matches.map((m) => m.spec.key)).size > 1) {
        const seen = new Set<string>();
        const listed = matches.filter((m) => !seen.has(m.spec.key) && seen.add(m.spec.key));
        throw new UsageError(`option '${eq < 0 ? arg : arg.slice(0, eq)}' is ambiguous; possibilities:${listed.map((m) => ` '--${m.name}'`).join("")}`);
      }
      const { spec, name: full } = matches[0]!;
      let value: string | undefined;
      if (eq >= 0) {
        if (!spec.arg) throw new UsageError(`option '--${full}' doesn't allow an argument`);
        value = arg.slice(eq + 1);
      } else if (spec.arg === "required") {
        if (i + 1 >= args.length) throw new UsageError(`option '--${full}' requires an argument`);
        value = args[++i];
      }
      options.push({ key: spec.key, value });
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (c >= "0" && c <= "9") {
          const last = options[options.length - 1];
          if (lastDigitArg === i && last?.key === "NUM") last.value += c;
          else options.push({ key: "NUM", value: c });
          lastDigitArg = i;
          continue;
        }
        const spec = SPECS.find((s) => s.short === c);
        if (!spec) throw new UsageError(`invalid option -- '${c}'`);
        if (spec.arg) {
          let value: string | undefined = arg.slice(j + 1);
          if (value === "") {
            if (i + 1 >= args.length) throw new UsageError(`option requires an argument -- '${c}'`);
            value = args[++i];
          }
          options.push({ key: spec.key, value });
          break;
        }
        options.push({ key: spec.key, value: undefined });
      }
      continue;
    }
    if (posixlyCorrect) {
      operands.push(...args.slice(i));
      break;
    }
    operands.push(arg);
  }
  return { options, operands };
}
