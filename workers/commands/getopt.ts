/**
 * GNU getopt_long, as the GNU tools parse their command lines: options and operands in any order, `--`
 * ends the options, short options cluster (`-in`), an argument attaches or follows (`-n5`, `-n 5`,
 * `--max-count=5`, `--max-count 5`), a long option may be abbreviated to a unique prefix, and the
 * messages are glibc's.
 */

export interface OptionSpec {
  /** What the caller gets back for it. */
  key: string;
  short?: string;
  long?: string;
  /** "required": `-n 5`/`--n=5`; "optional": only attached (`--color=never`); default none. */
  arg?: "required" | "optional";
}

export interface ParsedOption {
  key: string;
  value: string | undefined;
  /** As written: `-n` or `--max-count`. */
  name: string;
}

/** A usage error: `message` is glibc's line without the program name. */
export class UsageError extends Error {}

/** `stopAtOperand`: options end at the first operand (getopt's "+"), as for a tool that runs a command. */
export function getopt(args: readonly string[], specs: readonly OptionSpec[], stopAtOperand = false): { options: ParsedOption[]; operands: string[] } {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const exact = specs.find((s) => s.long === name);
      const matches = exact ? [exact] : specs.filter((s) => s.long?.startsWith(name));
      const distinct = [...new Set(matches.map((s) => s.key))];
      if (matches.length === 0) throw new UsageError(`unrecognized option '${arg}'`);
      if (distinct.length > 1)
        throw new UsageError(`option '${eq < 0 ? arg : arg.slice(0, eq)}' is ambiguous; possibilities:${matches.map((s) => ` '--${s.long}'`).join("")}`);
      const spec = matches[0]!;
      const written = `--${spec.long}`;
      let value: string | undefined;
      if (eq >= 0) {
        if (!spec.arg) throw new UsageError(`option '${written}' doesn't allow an argument`);
        value = arg.slice(eq + 1);
      } else if (spec.arg === "required") {
        if (i + 1 >= args.length) throw new UsageError(`option '${written}' requires an argument`);
        value = args[++i];
      }
      options.push({ key: spec.key, value, name: written });
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        const spec = specs.find((s) => s.short === c);
        if (!spec) throw new UsageError(`invalid option -- '${c}'`);
        if (spec.arg) {
          let value: string | undefined = arg.slice(j + 1);
          if (value === "") value = spec.arg === "required" ? args[++i] : undefined;
          if (value === undefined && spec.arg === "required") throw new UsageError(`option requires an argument -- '${c}'`);
          options.push({ key: spec.key, value, name: `-${c}` });
          break;
        }
        options.push({ key: spec.key, value: undefined, name: `-${c}` });
      }
      continue;
    }
    if (stopAtOperand) {
      operands.push(...args.slice(i));
      break;
    }
    operands.push(arg);
  }
  return { options, operands };
}
