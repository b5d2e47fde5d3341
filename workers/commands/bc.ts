import type { ScriptProcess } from "../script-host.js";
import { versionText } from "../../src/gnu/version.js";

// GNU bc 1.07: arbitrary precision numbers (BigInt scaled by 10^scale) with bc's scale rules, ibase and
// obase, variables, arrays, functions with auto, if/while/for, print, strings, -l (the math library's
// s c a l e j and scale=20), and its messages. Input is run a line at a time, as bc runs each complete
// line: a runtime error ends that line's run. "adr" in runtime messages is the byte address bc's own
// code would have reached: each node here knows the size of the code bc generates for it.

interface Num {
  v: bigint;
  s: number;
}

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);
const num = (v: bigint, s = 0): Num => ({ v, s });
const ZERO = num(0n);
const ONE = num(1n);

function rescale(a: Num, s: number): Num {
  if (s === a.s) return a;
  return s > a.s ? num(a.v * pow10(s - a.s), s) : num(a.v / pow10(a.s - s), s);
}
const add = (a: Num, b: Num): Num => {
  const s = Math.max(a.s, b.s);
  return num(rescale(a, s).v + rescale(b, s).v, s);
};
const sub = (a: Num, b: Num): Num => add(a, num(-b.v, b.s));
function mul(a: Num, b: Num, scale: number): Num {
  const full = a.s + b.s;
  return rescale(num(a.v * b.v, full), Math.min(full, Math.max(scale, a.s, b.s)));
}
class BcError extends Error {
  /** Where it happened: the function and the address, set where it is first caught. */
  at?: { func: string; pc: number };
}
function div(a: Num, b: Num, scale: number): Num {
  if (b.v === 0n) throw new BcError("Divide by zero");
  return num((a.v * pow10(b.s + scale)) / (b.v * pow10(a.s)), scale);
}
function mod(a: Num, b: Num, scale: number): Num {
  if (b.v === 0n) throw new BcError("Modulo by zero");
  const rscale = Math.max(a.s, b.s + scale);
  const q = div(a, b, scale);
  return rescale(sub(a, mul(q, b, rscale)), rscale);
}
const isZero = (a: Num): boolean => a.v === 0n;
const cmp = (a: Num, b: Num): number => {
  const s = Math.max(a.s, b.s);
  const d = rescale(a, s).v - rescale(b, s).v;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
const toInt = (a: Num): bigint => a.v / pow10(a.s);
function power(a: Num, e: bigint, scale: number): Num {
  if (e === 0n) return ONE;
  const neg = e < 0n;
  const n = neg ? -e : e;
  if (n > 1000000n) throw new BcError("exponent too large in raise");
  const exact = num(a.v ** n, a.s * Number(n));
  if (neg) return div(ONE, exact, scale);
  return rescale(exact, Math.min(a.s * Number(n), Math.max(scale, a.s)));
}
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  if (x === 0n) x = 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x && x * x <= n && (x + 1n) * (x + 1n) > n) return x;
    x = y;
    if (x * x <= n && (x + 1n) * (x + 1n) > n) return x;
  }
}
function sqrt(a: Num, scale: number): Num {
  if (a.v < 0n) throw new BcError("Square root of a negative number");
  const rscale = Math.max(scale, a.s);
  // floor(sqrt(a) * 10^rscale) = isqrt(a.v * 10^(2 rscale - a.s))
  const shift = 2 * rscale - a.s;
  return num(isqrt(shift >= 0 ? a.v * pow10(shift) : a.v / pow10(-shift)), rscale);
}
const length = (a: Num): number => {
  if (a.v === 0n) return a.s === 0 ? 1 : a.s;
  const digits = (a.v < 0n ? -a.v : a.v).toString().length;
  return Math.max(digits, a.s);
};

// ---- lexer ----

type Tok = { t: string; v?: string; line: number };

const KEYWORDS = new Set(["if", "else", "while", "for", "break", "continue", "return", "define", "auto", "print", "quit", "halt", "limits", "length", "sqrt", "scale", "ibase", "obase", "last", "read", "warranty"]);

class SyntaxErr extends Error {
  constructor(
    readonly line: number,
    message = "syntax error",
  ) {
    super(message);
  }
}

function lex(src: string, startLine: number): Tok[] {
  const toks: Tok[] = [];
  let line = startLine;
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      line++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\n") {
      // Reported as the next line, as bc's scanner has counted it when the parser looks at it.
      toks.push({ t: "\n", line: line + 1 });
      line++;
      i++;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const body = src.slice(i, end < 0 ? src.length : end + 2);
      line += body.split("\n").length - 1;
      i += body.length;
      continue;
    }
    if (c === '"') {
      const end = src.indexOf('"', i + 1);
      if (end < 0) throw new SyntaxErr(line, "unterminated string");
      const body = src.slice(i + 1, end);
      toks.push({ t: "str", v: body, line });
      line += body.split("\n").length - 1;
      i = end + 1;
      continue;
    }
    const numMatch = /^(?:[0-9A-Z](?:[0-9A-Z]|\\\n)*(?:\.(?:[0-9A-Z]|\\\n)*)?|\.(?:[0-9A-Z]|\\\n)+)/.exec(src.slice(i, i + 10000));
    if (numMatch && /[0-9A-Z.]/.test(c) && !(c === "." && !numMatch[0].slice(1).replace(/\\\n/g, ""))) {
      const text = numMatch[0];
      line += text.split("\n").length - 1;
      let digits = text.replace(/\\\n/g, "");
      // bc's scanner drops leading zeros (the code holds ".5" for 0.5).
      digits = digits.replace(/^0+(?=[0-9A-Z.])/, "");
      toks.push({ t: "num", v: digits, line });
      i += text.length;
      continue;
    }
    if (c === ".") {
      toks.push({ t: "last", line });
      i++;
      continue;
    }
    const word = /^[a-z][a-z0-9_]*/.exec(src.slice(i, i + 1000));
    if (word) {
      toks.push({ t: KEYWORDS.has(word[0]) ? word[0] : "name", v: word[0], line });
      i += word[0].length;
      continue;
    }
    const ops = ["++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "[", "]", "{", "}", ",", ";"];
    const op = ops.find((o) => src.startsWith(o, i));
    if (!op) throw new SyntaxErr(line, `illegal character: ${c}`);
    toks.push({ t: op, line });
    i += op.length;
  }
  return toks;
}

// ---- AST ----

type LV = { k: "var"; name: string } | { k: "elem"; name: string; index: Expr } | { k: "special"; name: "scale" | "ibase" | "obase" | "last" };
type Expr = (
  | { k: "num"; text: string }
  | { k: "lv"; lv: LV }
  | { k: "assign"; lv: LV; op: string; e: Expr }
  | { k: "incdec"; lv: LV; op: "++" | "--"; pre: boolean }
  | { k: "bin"; op: string; a: Expr; b: Expr }
  | { k: "neg"; e: Expr }
  | { k: "not"; e: Expr }
  | { k: "call"; name: string; args: Array<Expr | { k: "arrarg"; name: string }> }
  | { k: "builtin"; name: "length" | "sqrt" | "scale"; e: Expr }
  | { k: "read" }
) & { start: number; end: number };

type Stmt =
  | { k: "expr"; e: Expr }
  | { k: "str"; s: string }
  | { k: "print"; items: Array<Expr | { k: "s"; s: string }> }
  | { k: "block"; body: Stmt[] }
  | { k: "if"; c: Expr; then: Stmt; else?: Stmt }
  | { k: "while"; c: Expr; body: Stmt }
  | { k: "for"; init?: Expr; c?: Expr; step?: Expr; body: Stmt }
  | { k: "break" }
  | { k: "continue" }
  | { k: "return"; e?: Expr; end: number }
  | { k: "halt" }
  | { k: "limits" }
  | { k: "warranty" }
  | { k: "empty" };

interface Func {
  params: Array<{ name: string; array: boolean }>;
  autos: Array<{ name: string; array: boolean }>;
  body: Stmt[];
  void: boolean;
}

class Quit extends Error {}
class Halt extends Error {}

/** Parses one top-level item: statements up to a newline at the top level, or a function definition. */
class Parser {
  i = 0;
  pc = 0;
  funcName = "(main)";
  inLoop = 0;
  inFunc = false;
  constructor(private readonly toks: Tok[]) {}
  peek(): Tok | undefined {
    return this.toks[this.i];
  }
  at(t: string): boolean {
    return this.toks[this.i]?.t === t;
  }
  lineNow(): number {
    return (this.toks[this.i] ?? this.toks[this.toks.length - 1])?.line ?? 1;
  }
  expect(t: string): Tok {
    const tok = this.toks[this.i];
    if (!tok || tok.t !== t) throw new SyntaxErr(tok?.line ?? this.lineNow());
    this.i++;
    return tok;
  }
  skipNewlines(): void {
    while (this.at("\n")) this.i++;
  }
  emit(n: number): void {
    this.pc += n;
  }

  statement(): Stmt {
    const tok = this.peek();
    if (!tok) throw new SyntaxErr(this.lineNow());
    switch (tok.t) {
      case ";":
      case "\n":
        return { k: "empty" };
      case "str":
        this.i++;
        this.emit(2 + tok.v!.length);
        return { k: "str", s: tok.v! };
      case "{": {
        this.i++;
        const body = this.statementList("}");
        this.expect("}");
        return { k: "block", body };
      }
      case "if": {
        this.i++;
        this.expect("(");
        const c = this.expr();
        this.expect(")");
        this.emit(3);
        this.skipNewlines();
        const then = this.statement();
        // else may follow on the next line (GNU)
        const save = this.i;
        this.skipNewlines();
        if (this.at("else")) {
          this.i++;
          this.emit(3);
          this.skipNewlines();
          return { k: "if", c, then, else: this.statement() };
        }
        this.i = save;
        return { k: "if", c, then };
      }
      case "while": {
        this.i++;
        this.expect("(");
        const c = this.expr();
        this.expect(")");
        this.emit(3);
        this.skipNewlines();
        this.inLoop++;
        const body = this.statement();
        this.inLoop--;
        this.emit(3);
        return { k: "while", c, body };
      }
      case "for": {
        this.i++;
        this.expect("(");
        const init = this.at(";") ? undefined : this.expr();
        if (init) this.emit(1);
        this.expect(";");
        const c = this.at(";") ? undefined : this.expr();
        this.emit(6);
        this.expect(";");
        const step = this.at(")") ? undefined : this.expr();
        if (step) this.emit(1);
        this.emit(3);
        this.expect(")");
        this.skipNewlines();
        this.inLoop++;
        const body = this.statement();
        this.inLoop--;
        this.emit(3);
        return { k: "for", init, c, step, body };
      }
      case "break":
      case "continue":
        this.i++;
        if (!this.inLoop) throw new SyntaxErr(tok.line, tok.t === "break" ? "Break outside a for/while" : "Continue outside a for/while");
        this.emit(3);
        return { k: tok.t };
      case "return": {
        this.i++;
        if (!this.inFunc) throw new SyntaxErr(tok.line, "Return outside of a function.");
        let e: Expr | undefined;
        if (this.at("(")) {
          this.i++;
          if (!this.at(")")) e = this.expr();
          this.expect(")");
        } else if (!this.at(";") && !this.at("\n") && !this.at("}") && this.peek()) e = this.expr();
        this.emit(e ? 1 : 2);
        return { k: "return", e, end: this.pc };
      }
      case "quit":
        throw new Quit();
      case "halt":
        this.i++;
        this.emit(1);
        return { k: "halt" };
      case "limits":
        this.i++;
        return { k: "limits" };
      case "warranty":
        this.i++;
        return { k: "warranty" };
      case "print": {
        this.i++;
        const items: Array<Expr | { k: "s"; s: string }> = [];
        for (;;) {
          const t = this.peek();
          if (t?.t === "str") {
            this.i++;
            this.emit(2 + t.v!.length);
            items.push({ k: "s", s: t.v! });
          } else {
            items.push(this.expr());
            this.emit(1);
          }
          if (!this.at(",")) break;
          this.i++;
        }
        return { k: "print", items };
      }
      default: {
        const e = this.expr();
        this.emit(1);
        return { k: "expr", e };
      }
    }
  }

  statementList(until: string): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      while (this.at("\n") || this.at(";")) this.i++;
      if (!this.peek() || this.at(until)) return out;
      out.push(this.statement());
      if (!this.at(";") && !this.at("\n") && !this.at(until)) throw new SyntaxErr(this.lineNow());
    }
  }

  // ---- expressions (bc.y precedences) ----
  expr(): Expr {
    return this.orExpr();
  }
  mk<T extends object>(start: number, node: T): T & { start: number; end: number } {
    return { ...node, start, end: this.pc };
  }
  orExpr(): Expr {
    let a = this.andExpr();
    while (this.at("||")) {
      this.i++;
      this.emit(3);
      const b = this.andExpr();
      this.emit(4);
      a = this.mk(a.start, { k: "bin" as const, op: "||", a, b });
    }
    return a;
  }
  andExpr(): Expr {
    let a = this.notExpr();
    while (this.at("&&")) {
      this.i++;
      this.emit(5);
      const b = this.notExpr();
      this.emit(4);
      a = this.mk(a.start, { k: "bin" as const, op: "&&", a, b });
    }
    return a;
  }
  notExpr(): Expr {
    if (this.at("!")) {
      const start = this.pc;
      this.i++;
      const e = this.notExpr();
      this.emit(1);
      return this.mk(start, { k: "not" as const, e });
    }
    return this.relExpr();
  }
  relExpr(): Expr {
    let a = this.assignExpr();
    while (["==", "!=", "<", "<=", ">", ">="].includes(this.peek()?.t ?? "")) {
      const op = this.peek()!.t;
      this.i++;
      const b = this.assignExpr();
      this.emit(1);
      a = this.mk(a.start, { k: "bin" as const, op, a, b });
    }
    return a;
  }
  assignExpr(): Expr {
    const save = this.i;
    const savePc = this.pc;
    const lv = this.tryLvalue();
    const t = this.peek()?.t ?? "";
    if (lv && ["=", "+=", "-=", "*=", "/=", "%=", "^="].includes(t)) {
      this.i++;
      const start = savePc;
      if (t !== "=") this.emit(2);
      const e = this.assignExpr();
      if (t !== "=") this.emit(1);
      this.emit(2);
      return this.mk(start, { k: "assign" as const, lv: lv.lv, op: t, e });
    }
    this.i = save;
    this.pc = savePc;
    return this.addExpr();
  }
  /** An lvalue at the cursor (its code counted), or undefined. */
  tryLvalue(): { lv: LV } | undefined {
    const t = this.peek();
    if (!t) return undefined;
    if (t.t === "scale" || t.t === "ibase" || t.t === "obase" || t.t === "last") {
      if (t.t === "scale" && this.toks[this.i + 1]?.t === "(") return undefined;
      this.i++;
      return { lv: { k: "special", name: t.t } };
    }
    if (t.t === "name") {
      if (this.toks[this.i + 1]?.t === "(") return undefined;
      this.i++;
      if (this.at("[")) {
        this.i++;
        const index = this.expr();
        this.expect("]");
        return { lv: { k: "elem", name: t.v!, index } };
      }
      return { lv: { k: "var", name: t.v! } };
    }
    return undefined;
  }
  addExpr(): Expr {
    let a = this.mulExpr();
    while (this.at("+") || this.at("-")) {
      const op = this.peek()!.t;
      this.i++;
      const b = this.mulExpr();
      this.emit(1);
      a = this.mk(a.start, { k: "bin" as const, op, a, b });
    }
    return a;
  }
  mulExpr(): Expr {
    let a = this.powExpr();
    while (this.at("*") || this.at("/") || this.at("%")) {
      const op = this.peek()!.t;
      this.i++;
      const b = this.powExpr();
      this.emit(1);
      a = this.mk(a.start, { k: "bin" as const, op, a, b });
    }
    return a;
  }
  powExpr(): Expr {
    const a = this.unary();
    if (this.at("^")) {
      this.i++;
      const b = this.powExpr();
      this.emit(1);
      return this.mk(a.start, { k: "bin" as const, op: "^", a, b });
    }
    return a;
  }
  unary(): Expr {
    if (this.at("-")) {
      const start = this.pc;
      this.i++;
      const e = this.unary();
      this.emit(1);
      return this.mk(start, { k: "neg" as const, e });
    }
    return this.postfix();
  }
  postfix(): Expr {
    const start = this.pc;
    const t = this.peek();
    if (!t) throw new SyntaxErr(this.lineNow());
    if (t.t === "++" || t.t === "--") {
      this.i++;
      const lv = this.tryLvalue();
      if (!lv) throw new SyntaxErr(t.line);
      this.emit(4);
      return this.mk(start, { k: "incdec" as const, lv: lv.lv, op: t.t, pre: true });
    }
    if (t.t === "num") {
      this.i++;
      this.emit(t.v === "0" || t.v === "1" ? 1 : t.v!.length + 2);
      return this.mk(start, { k: "num" as const, text: t.v! });
    }
    if (t.t === "(") {
      this.i++;
      const e = this.expr();
      this.expect(")");
      return e;
    }
    if (t.t === "length" || t.t === "sqrt" || (t.t === "scale" && this.toks[this.i + 1]?.t === "(")) {
      this.i++;
      this.expect("(");
      const e = this.expr();
      this.expect(")");
      this.emit(2);
      return this.mk(start, { k: "builtin" as const, name: t.t as "length" | "sqrt" | "scale", e });
    }
    if (t.t === "read") {
      this.i++;
      this.expect("(");
      this.expect(")");
      this.emit(2);
      return this.mk(start, { k: "read" as const });
    }
    if (t.t === "name" && this.toks[this.i + 1]?.t === "(") {
      this.i += 2;
      const args: Array<Expr | { k: "arrarg"; name: string }> = [];
      while (!this.at(")")) {
        const a = this.peek();
        if (a?.t === "name" && this.toks[this.i + 1]?.t === "[" && this.toks[this.i + 2]?.t === "]") {
          this.i += 3;
          this.emit(3);
          args.push({ k: "arrarg", name: a.v! });
        } else args.push(this.expr());
        if (!this.at(",")) break;
        this.i++;
      }
      this.expect(")");
      this.emit(3);
      return this.mk(start, { k: "call" as const, name: t.v!, args });
    }
    if (t.t === "last") {
      this.i++;
      this.emit(2);
      return this.mk(start, { k: "lv" as const, lv: { k: "special", name: "last" } as LV });
    }
    const lv = this.tryLvalue();
    if (!lv) throw new SyntaxErr(t.line);
    if (this.at("++") || this.at("--")) {
      const op = this.peek()!.t as "++" | "--";
      this.i++;
      this.emit(lv.lv.k === "elem" ? 6 : 4);
      return this.mk(start, { k: "incdec" as const, lv: lv.lv, op, pre: false });
    }
    this.emit(2);
    return this.mk(start, { k: "lv" as const, lv: lv.lv });
  }

  define(): [string, Func] {
    this.expect("define");
    const isVoid = this.peek()?.t === "name" && this.peek()!.v === "void" && this.toks[this.i + 1]?.t === "name";
    if (isVoid) this.i++;
    const name = this.expect("name").v!;
    this.expect("(");
    const params: Func["params"] = [];
    while (!this.at(")")) {
      const p = this.expect("name").v!;
      let array = false;
      if (this.at("[")) {
        this.i++;
        this.expect("]");
        array = true;
      }
      params.push({ name: p, array });
      if (!this.at(",")) break;
      this.i++;
    }
    this.expect(")");
    this.skipNewlines();
    this.expect("{");
    this.skipNewlines();
    const autos: Func["autos"] = [];
    if (this.at("auto")) {
      this.i++;
      for (;;) {
        const a = this.expect("name").v!;
        let array = false;
        if (this.at("[")) {
          this.i++;
          this.expect("]");
          array = true;
        }
        autos.push({ name: a, array });
        if (!this.at(",")) break;
        this.i++;
      }
      if (this.at(";") || this.at("\n")) this.i++;
    }
    this.pc = 0;
    this.inFunc = true;
    const body = this.statementList("}");
    this.inFunc = false;
    this.expect("}");
    return [name, { params, autos, body, void: isVoid }];
  }
}

// ---- interpreter ----

class Signal {
  constructor(
    readonly kind: "break" | "continue" | "return",
    readonly value: Num = ZERO,
  ) {}
}

const USAGE =
  "usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n  -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n  -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n  -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n";

const LIMITS = `BC_BASE_MAX     = 2147483647
BC_DIM_MAX      = 16777215
BC_SCALE_MAX    = 2147483647
BC_STRING_MAX   = 2147483647
MAX Exponent    = 9223372036854775807
Number of vars  = 32767
`;

export default function bc({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const args = argv.slice(1);
  let mathlib = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a === "-l" || a === "--mathlib") mathlib = true;
    else if (a === "-q" || a === "--quiet" || a === "-s" || a === "--standard" || a === "-w" || a === "--warn" || a === "-i" || a === "--interactive") continue;
    else if (a === "-v" || a === "--version") {
      stdout.write(versionText("bc", "GNU bc 1.07.1"));
      return 0;
    } else if (a === "-h" || a === "--help") {
      stdout.write(USAGE);
      return 0;
    } else if (/^-[lqswi]+$/.test(a)) {
      if (a.includes("l")) mathlib = true;
    } else if (a.startsWith("-") && a !== "-") {
      stderr.write(`bc: invalid option -- '${a[1]}'\n`);
      stdout.write(USAGE);
      return 1;
    } else files.push(a);
  }

  const lineLen = (() => {
    const v = Number(sys.env["BC_LINE_LENGTH"]);
    if (sys.env["BC_LINE_LENGTH"] === undefined || !Number.isInteger(v)) return 70;
    if (v === 0) return 0;
    return v < 3 ? 70 : v;
  })();

  let scale = 0;
  let ibase = 10;
  let obase = 10;
  let last: Num = ZERO;
  const vars = new Map<string, Num>();
  const arrays = new Map<string, Map<string, Num>>();
  const funcs = new Map<string, Func>();
  let outCol = 0;
  let funcName = "(main)";
  let pc = 0;

  const outChar = (ch: string): void => {
    if (ch === "\n") {
      outCol = 0;
      stdout.write(ch);
      return;
    }
    outCol++;
    if (lineLen !== 0 && outCol === lineLen - 1) {
      stdout.write("\\\n");
      outCol = 1;
    }
    stdout.write(ch);
  };
  const outStr = (s: string): void => {
    for (const ch of s) {
      if (ch === "\n") outCol = 0;
      else outCol++;
    }
    stdout.write(s);
  };

  const DIGITS = "0123456789ABCDEF";
  function printNum(n: Num): void {
    if (n.v < 0n) outChar("-");
    const a = n.v < 0n ? num(-n.v, n.s) : n;
    if (a.v === 0n) {
      outChar("0");
      return;
    }
    const intPart = a.v / pow10(a.s);
    let frac = num(a.v - intPart * pow10(a.s), a.s);
    if (obase === 10) {
      const s = a.v.toString().padStart(a.s + 1, "0");
      const ip = s.slice(0, s.length - a.s);
      if (ip !== "0") for (const ch of ip) outChar(ch);
      if (a.s > 0) {
        outChar(".");
        for (const ch of s.slice(s.length - a.s)) outChar(ch);
      }
      return;
    }
    const base = BigInt(obase);
    const width = String(obase - 1).length;
    if (intPart > 0n) {
      const digits: bigint[] = [];
      for (let x = intPart; x > 0n; x /= base) digits.push(x % base);
      for (const d of digits.reverse()) {
        if (obase <= 16) outChar(DIGITS[Number(d)]!);
        else for (const ch of ` ${d.toString().padStart(width, "0")}`) outChar(ch);
      }
    }
    if (a.s > 0) {
      outChar(".");
      let pre = false;
      for (let t = 1n; t.toString().length <= a.s; t *= base) {
        frac = mul(frac, num(base), a.s);
        const d = frac.v / pow10(frac.s);
        frac = num(frac.v - d * pow10(frac.s), frac.s);
        if (obase <= 16) outChar(DIGITS[Number(d)]!);
        else {
          for (const ch of `${pre ? " " : ""}${d.toString().padStart(width, "0")}`) outChar(ch);
          pre = true;
        }
      }
    }
  }

  const warn = (msg: string): void => {
    stdout.flush();
    stderr.write(`Runtime warning (func=${funcName}, adr=${pc}): ${msg}\n`);
  };

  function constant(text: string): Num {
    const digit = (c: string): number => (c >= "0" && c <= "9" ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55);
    if (text.length === 1 && text !== ".") return num(BigInt(digit(text)));
    const [ip, fp = ""] = text.split(".");
    const base = BigInt(ibase);
    const cap = (c: string): bigint => BigInt(Math.min(digit(c), ibase - 1));
    if (ibase === 10) {
      const clean = (s: string): string => [...s].map((c) => String(Math.min(digit(c), 9))).join("");
      return num(BigInt(clean(ip!) + clean(fp) || "0"), fp.length);
    }
    let v = 0n;
    for (const c of ip!) v = v * base + cap(c);
    if (!fp) return num(v);
    let f = 0n;
    let m = 1n;
    for (const c of fp) {
      f = f * base + cap(c);
      m *= base;
    }
    return add(num(v), div(num(f), num(m), fp.length));
  }

  function getArr(name: string): Map<string, Num> {
    let a = arrays.get(name);
    if (!a) arrays.set(name, (a = new Map()));
    return a;
  }
  function indexOf(e: Expr): string {
    const i = toInt(evaluate(e));
    if (i < 0n || i > 16777215n) throw new BcError("Array " + "index out of range");
    return i.toString();
  }
  function load(lv: LV): Num {
    switch (lv.k) {
      case "var":
        return vars.get(lv.name) ?? ZERO;
      case "elem": {
        const i = indexOf(lv.index);
        return getArr(lv.name).get(i) ?? ZERO;
      }
      case "special":
        return lv.name === "scale" ? num(BigInt(scale)) : lv.name === "ibase" ? num(BigInt(ibase)) : lv.name === "obase" ? num(BigInt(obase)) : last;
    }
  }
  function store(lv: LV, v: Num, index?: string): Num {
    switch (lv.k) {
      case "var":
        vars.set(lv.name, v);
        return v;
      case "elem":
        getArr(lv.name).set(index ?? indexOf(lv.index), v);
        return v;
      case "special": {
        if (lv.name === "last") return (last = v);
        const n = toInt(v);
        if (lv.name === "scale") {
          if (n < 0n) {
            warn("negative scale, set to 0");
            scale = 0;
          } else scale = Number(n > 2147483647n ? 2147483647n : n);
        } else if (lv.name === "ibase") {
          if (n < 2n) {
            warn("ibase too small, set to 2");
            ibase = 2;
          } else if (n > 36n) {
            warn("ibase too large, set to 36");
            ibase = 36;
          } else ibase = Number(n);
        } else {
          if (n < 2n) {
            warn("obase too small, set to 2");
            obase = 2;
          } else if (n > 999n) {
            warn("obase too large, set to 999");
            obase = 999;
          } else obase = Number(n);
        }
        return v;
      }
    }
  }

  function evaluate(e: Expr): Num {
    switch (e.k) {
      case "num":
        return constant(e.text);
      case "lv":
        return load(e.lv);
      case "assign": {
        const index = e.lv.k === "elem" ? indexOf(e.lv.index) : undefined;
        const old = e.op === "=" ? ZERO : e.lv.k === "elem" ? (getArr(e.lv.name).get(index!) ?? ZERO) : load(e.lv);
        const v = evaluate(e.e);
        // The operator's own byte comes before the store's two.
        pc = e.op === "=" ? e.end : e.end - 2;
        const r = e.op === "=" ? v : binop(e.op[0]!, old, v);
        pc = e.end;
        return store(e.lv, r, index);
      }
      case "incdec": {
        const index = e.lv.k === "elem" ? indexOf(e.lv.index) : undefined;
        const old = e.lv.k === "elem" ? (getArr(e.lv.name).get(index!) ?? ZERO) : load(e.lv);
        const nv = e.op === "++" ? add(old, ONE) : sub(old, ONE);
        store(e.lv, nv, index);
        return e.pre ? nv : old;
      }
      case "bin": {
        if (e.op === "&&") return !isZero(evaluate(e.a)) && !isZero(evaluate(e.b)) ? ONE : ZERO;
        if (e.op === "||") return !isZero(evaluate(e.a)) || !isZero(evaluate(e.b)) ? ONE : ZERO;
        const a = evaluate(e.a);
        const b = evaluate(e.b);
        pc = e.end;
        return binop(e.op, a, b);
      }
      case "neg": {
        const v = evaluate(e.e);
        return num(-v.v, v.s);
      }
      case "not":
        return isZero(evaluate(e.e)) ? ONE : ZERO;
      case "builtin": {
        const v = evaluate(e.e);
        pc = e.end;
        if (e.name === "length") return num(BigInt(length(v)));
        if (e.name === "scale") return num(BigInt(v.s));
        return sqrt(v, scale);
      }
      case "read":
        throw new BcError("read() is not supported");
      case "call":
        return call(e);
    }
  }

  function binop(op: string, a: Num, b: Num): Num {
    switch (op) {
      case "+":
        return add(a, b);
      case "-":
        return sub(a, b);
      case "*":
        return mul(a, b, scale);
      case "/":
        return div(a, b, scale);
      case "%":
        return mod(a, b, scale);
      case "^":
        if (b.s > 0 && b.v % pow10(b.s) !== 0n) warn("non-zero scale in exponent");
        return power(a, toInt(b), scale);
      case "==":
        return cmp(a, b) === 0 ? ONE : ZERO;
      case "!=":
        return cmp(a, b) !== 0 ? ONE : ZERO;
      case "<":
        return cmp(a, b) < 0 ? ONE : ZERO;
      case "<=":
        return cmp(a, b) <= 0 ? ONE : ZERO;
      case ">":
        return cmp(a, b) > 0 ? ONE : ZERO;
      case ">=":
        return cmp(a, b) >= 0 ? ONE : ZERO;
    }
    throw new Error(op);
  }

  let depth = 0;
  function call(e: Extract<Expr, { k: "call" }>): Num {
    const f = funcs.get(e.name);
    if (!f) {
      pc = e.end;
      throw new BcError(`Function ${e.name} not defined.`);
    }
    if (f.params.length !== e.args.length) {
      pc = e.end;
      throw new BcError(`Parameter number mismatch`);
    }
    const values = e.args.map((a, k) => {
      if (a.k === "arrarg") {
        if (!f.params[k]!.array) throw new BcError("Parameter type mismatch");
        return new Map(getArr(a.name));
      }
      if (f.params[k]!.array) throw new BcError("Parameter type mismatch");
      return evaluate(a);
    });
    if (++depth > 10000) throw new BcError("Function call nesting too deep");
    // Dynamic scope: save what the parameters and autos shadow.
    const saved: Array<() => void> = [];
    const bind = (name: string, array: boolean, value: Num | Map<string, Num>): void => {
      if (array) {
        const old = arrays.get(name);
        saved.push(() => (old ? arrays.set(name, old) : arrays.delete(name)));
        arrays.set(name, value as Map<string, Num>);
      } else {
        const old = vars.get(name);
        saved.push(() => (old ? vars.set(name, old) : vars.delete(name)));
        vars.set(name, value as Num);
      }
    };
    f.params.forEach((p, k) => bind(p.name, p.array, values[k]!));
    for (const a of f.autos) bind(a.name, a.array, a.array ? new Map() : ZERO);
    const savedFunc = funcName;
    const savedPc = pc;
    funcName = e.name;
    try {
      for (const s of f.body) {
        const r = exec(s);
        if (r instanceof Signal && r.kind === "return") return r.value;
      }
      return ZERO;
    } catch (err) {
      if (err instanceof BcError) err.at ??= { func: funcName, pc };
      throw err;
    } finally {
      for (const restore of saved.reverse()) restore();
      funcName = savedFunc;
      pc = savedPc;
      depth--;
    }
  }

  function printString(s: string, escapes: boolean): void {
    if (!escapes) return outStr(s);
    const map: Record<string, string> = { n: "\n", t: "\t", a: "\x07", b: "\b", f: "\f", r: "\r", q: '"', "\\": "\\", e: "\\" };
    let out = "";
    for (let i = 0; i < s.length; i++) {
      if (s[i] === "\\" && i + 1 < s.length) {
        const c = s[++i]!;
        out += map[c] ?? `\\${c}`;
      } else out += s[i];
    }
    outStr(out);
  }

  function exec(s: Stmt): Signal | undefined {
    switch (s.k) {
      case "empty":
        return;
      case "expr": {
        const e = s.e;
        const v = evaluate(e);
        if (e.k !== "assign") {
          printNum(v);
          outChar("\n");
          last = v;
        }
        return;
      }
      case "str":
        printString(s.s, false);
        return;
      case "print":
        for (const item of s.items) {
          if (item.k === "s") printString((item as { s: string }).s, true);
          else {
            const v = evaluate(item as Expr);
            printNum(v);
            last = v;
          }
        }
        return;
      case "block":
        for (const b of s.body) {
          const r = exec(b);
          if (r) return r;
        }
        return;
      case "if":
        if (!isZero(evaluate(s.c))) return exec(s.then);
        if (s.else) return exec(s.else);
        return;
      case "while":
        while (!isZero(evaluate(s.c))) {
          const r = exec(s.body);
          if (r?.kind === "break") break;
          if (r?.kind === "return") return r;
        }
        return;
      case "for":
        if (s.init) evaluate(s.init);
        while (!s.c || !isZero(evaluate(s.c))) {
          const r = exec(s.body);
          if (r?.kind === "break") break;
          if (r?.kind === "return") return r;
          if (s.step) evaluate(s.step);
        }
        return;
      case "break":
        return new Signal("break");
      case "continue":
        return new Signal("continue");
      case "return":
        return new Signal("return", s.e ? evaluate(s.e) : ZERO);
      case "halt":
        throw new Halt();
      case "limits":
        outStr(LIMITS);
        return;
      case "warranty":
        outStr("bc 1.07.1\n");
        return;
    }
  }

  /** Parses and runs `src` item by item (a line's statements run once the line is complete). */
  function run(src: string, name: string): void {
    let toks: Tok[];
    try {
      toks = lex(src, 1);
    } catch (e) {
      if (!(e instanceof SyntaxErr)) throw e;
      // Lex what comes before the bad character, report it, and go on after it (as bc does by line).
      const lines = src.split("\n");
      const before = lines.slice(0, e.line - 1).join("\n");
      if (before) run(`${before}\n`, name);
      stdout.flush();
      stderr.write(`${name} ${e.line}: ${e.message}\n`);
      const rest = lines.slice(e.line).join("\n");
      if (rest) run(`${"\n".repeat(e.line)}${rest}`.slice(e.line), name);
      return;
    }
    const p = new Parser(toks);
    while (p.i < toks.length) {
      if (p.at("\n") || p.at(";")) {
        p.i++;
        continue;
      }
      const startTok = p.i;
      p.pc = 0;
      try {
        if (p.at("define")) {
          const [fname, f] = p.define();
          funcs.set(fname, f);
          continue;
        }
        const stmts: Stmt[] = [];
        for (;;) {
          stmts.push(p.statement());
          if (p.at(";")) {
            p.i++;
            if (p.at("\n") || !p.peek()) break;
            continue;
          }
          if (p.at("\n") || !p.peek()) break;
          throw new SyntaxErr(p.lineNow());
        }
        if (p.at("\n")) p.i++;
        funcName = "(main)";
        try {
          for (const s of stmts) {
            pc = 0;
            exec(s);
          }
        } catch (e) {
          if (e instanceof BcError) {
            stdout.flush();
            const at = e.at ?? { func: funcName, pc };
            stderr.write(`Runtime error (func=${at.func}, adr=${at.pc}): ${e.message}\n`);
            funcName = "(main)";
          } else throw e;
        }
      } catch (e) {
        if (!(e instanceof SyntaxErr)) throw e;
        stdout.flush();
        stderr.write(`${name} ${e.line}: ${e.message}\n`);
        // Recover at the next newline.
        let k = Math.max(p.i, startTok);
        while (k < toks.length && toks[k]!.t !== "\n") k++;
        p.i = k + 1;
      }
    }
  }

  try {
    if (mathlib) {
      scale = 20;
      installMathlib(funcs);
    }
    for (const f of files) {
      let text: string;
      try {
        text = Buffer.from(sys.readFile(f)).toString("latin1");
      } catch {
        stderr.write(`File ${f} is unavailable.\n`);
        return 1;
      }
      run(text, f);
    }
    run(Buffer.from(sys.readAll(0)).toString("latin1"), "(standard_in)");
  } catch (e) {
    if (e instanceof Quit || e instanceof Halt) return 0;
    throw e;
  }
  return 0;
}

/** The math library (-l), written for this bc in bc: the same series and argument reductions as GNU's. */
const MATHLIB = `
define e(x) {
  auto a, b, d, e, f, i, m, n, v, z
  b = ibase; ibase = A
  if (x < 0) { m = 1; x = -x }
  z = scale; n = 6 + z + .44 * x; scale = scale(x) + 1
  while (x > 1) { f += 1; x /= 2; scale += 1 }
  scale = n; v = 1 + x; a = x; d = 1
  for (i = 2; 1; i++) {
    e = (a *= x) / (d *= i)
    if (e == 0) {
      if (f > 0) while (f--) v = v * v
      scale = z; ibase = b
      if (m) return (1 / v)
      return (v / 1)
    }
    v += e
  }
}
define l(x) {
  auto b, e, f, i, m, n, r, v, z
  b = ibase; ibase = A
  if (x <= 0) { r = (1 - 10 ^ scale) / 1; ibase = b; return (r) }
  z = scale; scale = 6 + scale; f = 2; i = 0
  while (x >= 2) { f *= 2; x = sqrt(x) }
  while (x <= .5) { f *= 2; x = sqrt(x) }
  v = n = (x - 1) / (x + 1); m = n * n
  for (i = 3; 1; i += 2) {
    e = (n *= m) / i
    if (e == 0) { v = f * v; scale = z; ibase = b; return (v / 1) }
    v += e
  }
}
define s(x) {
  auto a, b, e, i, m, n, s, v, z
  b = ibase; ibase = A
  z = scale; scale = 1.1 * z + 2
  v = a(1)
  if (x < 0) { m = 1; x = -x }
  scale = 0; n = (x / v + 2) / 4; x = x - 4 * n * v
  if (n % 2) x = -x
  scale = z + 2; v = e = x; s = -x * x
  for (i = 3; 1; i += 2) {
    e *= s / (i * (i - 1))
    if (e == 0) { scale = z; ibase = b; if (m) return (-v / 1); return (v / 1) }
    v += e
  }
}
define c(x) {
  auto b, v, z
  b = ibase; ibase = A
  z = scale; scale = scale * 1.2
  v = s(x + a(1) * 2)
  scale = z; ibase = b
  return (v / 1)
}
define a(x) {
  auto a, b, e, f, i, m, n, s, v, z
  b = ibase; ibase = A
  m = 1
  if (x < 0) { m = -1; x = -x }
  if (x == 1) {
    if (scale <= 25) { ibase = b; return (.7853981633974483096156608 / m) }
    if (scale <= 40) { ibase = b; return (.7853981633974483096156608458198757210492 / m) }
    if (scale <= 60) { ibase = b; return (.785398163397448309615660845819875721049292349843776455243736 / m) }
  }
  if (x == .2) {
    if (scale <= 25) { ibase = b; return (.1973955598498807583700497 / m) }
    if (scale <= 40) { ibase = b; return (.1973955598498807583700497651947902934475 / m) }
    if (scale <= 60) { ibase = b; return (.197395559849880758370049765194790293447585103787852101517688 / m) }
  }
  z = scale
  if (x > .2) { scale = z + 5; a = a(.2) }
  scale = z + 3
  while (x > .2) { f += 1; x = (x - .2) / (1 + x * .2) }
  v = n = x; s = -x * x
  for (i = 3; 1; i += 2) {
    e = (n *= s) / i
    if (e == 0) { scale = z; ibase = b; return ((f * a + v) / m) }
    v += e
  }
}
define j(n, x) {
  auto a, b, d, i, m, o, s, v, z
  o = ibase; ibase = A
  z = scale; scale = 0; n = n / 1
  if (n < 0) { n = -n; if (n % 2 == 1) m = 1 }
  scale = z + length(x) - scale(x) + 2
  a = 1
  for (i = 2; i <= n; i++) a *= i
  a = (x / 2) ^ n / a
  b = 1; v = 1; s = -x * x / 4
  scale = scale + length(a) - scale(a)
  for (i = 1; 1; i++) {
    b *= s / i / (n + i)
    if (b == 0) { scale = z; ibase = o; if (m) return (-a * v / 1); return (a * v / 1) }
    v += b
  }
}
`;

function installMathlib(funcs: Map<string, Func>): void {
  const p = new Parser(lex(MATHLIB, 1));
  while (p.i < p["toks"].length) {
    if (p.at("\n")) {
      p.i++;
      continue;
    }
    const [name, f] = p.define();
    funcs.set(name, f);
  }
}
