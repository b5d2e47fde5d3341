/**
 * find's command line: leading options (-H -L -P -D -O), starting points, then the expression, parsed
 * with GNU's precedence (`,` < `-o` < `-a`/juxtaposition < `!` < primaries and parentheses).
 */
import { FindError, type Find } from "./context.js";
import { type Args, PRIMARIES, type Primary, type Test } from "./predicates.js";

export interface Command {
  starts: string[];
  test: Test;
}

/** GNU's looks_like_expression: what ends the starting points. */
function isExpression(arg: string, leading: boolean): boolean {
  if (arg.startsWith("-")) return arg.length > 1;
  if (arg === ")" || arg === ",") return true;
  if ((arg === "!" || arg === "(") && leading) return true;
  return arg === "!" || arg === "(";
}

export function parseCommandLine(f: Find, argv: readonly string[]): Command {
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-H" || a === "-L" || a === "-P") f.symlinks = a[1] as "H" | "L" | "P";
    else if (a === "-D") {
      if (i + 1 >= argv.length) throw new FindError("Missing argument after the -D option.");
      i++;
    } else if (a.startsWith("-O") && /^-O\d*$/.test(a)) continue;
    else if (a === "--") {
      i++;
      break;
    } else if (/^-[HLP]+$/.test(a)) f.symlinks = a[a.length - 1] as "H" | "L" | "P";
    else break;
  }
  const starts: string[] = [];
  for (; i < argv.length && !isExpression(argv[i]!, starts.length === 0); i++) starts.push(argv[i]!);
  const tokens = argv.slice(i);
  const p = new Parser(f, tokens);
  let test: Test;
  let hasAction = false;
  if (tokens.length === 0) test = () => true;
  else {
    const node = p.parseComma();
    if (p.pos < tokens.length) {
      const t = tokens[p.pos]!;
      if (t === ")") throw new FindError("you have too many ')'");
      throw new FindError(`paths must precede expression: \`${t}'`);
    }
    test = node;
    hasAction = p.hasAction;
  }
  if (p.hasDelete && p.hasPrune && !f.explicitDepth)
    throw new FindError(
      "The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.",
    );
  if (!hasAction) {
    const inner = test;
    const out = f.stdout;
    test = (e) => {
      if (inner(e)) out.write(`${e.path}\n`);
      return true;
    };
  }
  return { starts: starts.length > 0 ? starts : ["."], test };
}

const OR = new Set(["-o", "-or"]);
const AND = new Set(["-a", "-and"]);
const NOT = new Set(["!", "-not"]);

class Parser {
  pos = 0;
  hasAction = false;
  hasDelete = false;
  hasPrune = false;
  /** The last test or action parsed (for the warning about global options after it). */
  private lastTest: string | undefined;

  constructor(
    readonly f: Find,
    readonly tokens: readonly string[],
  ) {}

  private peek(): string | undefined {
    return this.tokens[this.pos];
  }

  parseComma(): Test {
    let left = this.parseOr();
    while (this.peek() === ",") {
      this.pos++;
      if (this.peek() === undefined || this.peek() === ")") throw new FindError("expected an expression after ','");
      const l = left;
      const r = this.parseOr();
      left = (e) => (l(e), r(e));
    }
    return left;
  }

  private parseOr(): Test {
    let left = this.parseAnd();
    while (this.peek() !== undefined && OR.has(this.peek()!)) {
      const op = this.tokens[this.pos++]!;
      const n = this.peek();
      if (n === undefined || n === ")" || n === "," || OR.has(n) || AND.has(n)) {
        if (n === undefined) throw new FindError(`expected an expression after '${op}'`);
        throw new FindError(`invalid expression; you have used a binary operator '${n}' with nothing before it.`);
      }
      const l = left;
      const r = this.parseAnd();
      left = (e) => l(e) || r(e);
    }
    return left;
  }

  private parseAnd(): Test {
    let left = this.parseNot();
    for (;;) {
      const t = this.peek();
      if (t === undefined || t === ")" || t === "," || OR.has(t)) return left;
      if (AND.has(t)) {
        this.pos++;
        const n = this.peek();
        if (n === undefined) throw new FindError(`expected an expression after '${t}'`);
        if (n === ")" || n === "," || OR.has(n) || AND.has(n))
          throw new FindError(`invalid expression; you have used a binary operator '${n}' with nothing before it.`);
      }
      const l = left;
      const r = this.parseNot();
      left = (e) => l(e) && r(e);
    }
  }

  private parseNot(): Test {
    const t = this.peek();
    if (t !== undefined && NOT.has(t)) {
      this.pos++;
      const n = this.peek();
      if (n === undefined) throw new FindError(`expected an expression after '${t}'`);
      if (n === ")" || n === "," || OR.has(n) || AND.has(n))
        throw new FindError(`invalid expression; you have used a binary operator '${n}' with nothing before it.`);
      const inner = this.parseNot();
      return (e) => !inner(e);
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Test {
    const t = this.tokens[this.pos++];
    if (t === undefined) throw new FindError("expected an expression");
    if (t === "(") {
      if (this.peek() === ")") throw new FindError("invalid expression; empty parentheses are not allowed.");
      if (this.peek() === undefined) throw new FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      const inner = this.parseComma();
      if (this.peek() !== ")") throw new FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      this.pos++;
      return inner;
    }
    if (t === ")") throw new FindError("you have too many ')'");
    if (OR.has(t) || AND.has(t) || t === ",")
      throw new FindError(`invalid expression; you have used a binary operator '${t}' with nothing before it.`);
    if (!t.startsWith("-") || t === "-") throw new FindError(`paths must precede expression: \`${t}'`);
    const make = Object.hasOwn(PRIMARIES, t) ? PRIMARIES[t] : undefined;
    if (!make) {
      if (/^-newer/.test(t) && t.length === 8) throw new FindError(`invalid predicate \`${t}'`);
      throw new FindError(`unknown predicate \`${t}'`);
    }
    const args: Args = {
      name: t,
      next: () => {
        const v = this.tokens[this.pos];
        if (v === undefined) throw new FindError(`missing argument to \`${t}'`);
        this.pos++;
        return v;
      },
      peek: () => this.tokens[this.pos],
    };
    const primary: Primary = make(this.f, args);
    if (primary.global && this.lastTest !== undefined && this.f.warnings)
      this.f.warn(
        `you have specified the global option ${t} after the argument ${this.lastTest}, but global options are not positional, i.e., ${t} affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.`,
      );
    if (!primary.option) this.lastTest = t;
    if (primary.action) this.hasAction = true;
    if (t === "-delete") this.hasDelete = true;
    if (t === "-prune") this.hasPrune = true;
    return primary.test;
  }
}
