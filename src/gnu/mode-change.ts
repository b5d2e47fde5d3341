/**
 * File mode changes as GNU's modechange.c computes them (chmod, and anything else that takes a MODE):
 * `compileMode` parses an octal or symbolic mode into a list of changes, `adjustMode` applies them to a
 * file's mode, `modeString` renders a mode as `ls -l` does.
 */

const SUID = 0o4000;
const SGID = 0o2000;
const SVTX = 0o1000;
const RWXU = 0o700;
const RWXG = 0o070;
const RWXO = 0o007;
const R_ALL = 0o444;
const W_ALL = 0o222;
const X_ALL = 0o111;
/** Every bit chmod can change. */
export const MODE_BITS = 0o7777;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

type Flag = "ordinary" | "x-if-any-x" | "copy-existing";

/** One `[ugoa]*[-+=]…` operation. */
export interface ModeChange {
  op: "=" | "+" | "-";
  flag: Flag;
  /** The who bits (u, g, o, a); 0 means none given: the umask then filters the value. */
  affected: number;
  value: number;
  /** Bits the mode names explicitly: a directory's setuid/setgid bits are kept unless named. */
  mentioned: number;
}

const isOctal = (c: string | undefined): c is string => c !== undefined && c >= "0" && c <= "7";

/** `=MODE` for all bits, as an octal mode or --reference makes. */
const equals = (value: number, mentioned: number): ModeChange[] => [{ op: "=", flag: "ordinary", affected: MODE_BITS, value, mentioned }];

/** The changes `mode` asks for, or undefined when it is not a valid mode. */
export function compileMode(mode: string): ModeChange[] | undefined {
  if (isOctal(mode[0])) {
    let n = 0;
    let i = 0;
    for (; isOctal(mode[i]); i++) if ((n = n * 8 + Number(mode[i])) > MODE_BITS) return undefined;
    if (i < mode.length) return undefined;
    // Fewer than 5 digits leave a directory's setuid and setgid bits alone unless they are set (GNU).
    return equals(n, i < 5 ? (n & (SUID | SGID)) | SVTX | 0o777 : MODE_BITS);
  }
  const changes: ModeChange[] = [];
  let i = 0;
  // One iteration per '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+', separated by commas.
  for (;;) {
    let affected = 0;
    for (; ; i++) {
      const c = mode[i];
      if (c === "u") affected |= SUID | RWXU;
      else if (c === "g") affected |= SGID | RWXG;
      else if (c === "o") affected |= SVTX | RWXO;
      else if (c === "a") affected |= MODE_BITS;
      else if (c === "=" || c === "+" || c === "-") break;
      else return undefined;
    }
    do {
      const op = mode[i++] as ModeChange["op"];
      let value = 0;
      let mentioned = 0;
      let flag: Flag = "copy-existing";
      const c = mode[i];
      if (isOctal(c)) {
        let n = 0;
        for (; isOctal(mode[i]); i++) if ((n = n * 8 + Number(mode[i])) > MODE_BITS) return undefined;
        if (affected !== 0 || (i < mode.length && mode[i] !== ",")) return undefined;
        affected = mentioned = MODE_BITS;
        value = n;
        flag = "ordinary";
      } else if (c === "u" || c === "g" || c === "o") {
        value = c === "u" ? RWXU : c === "g" ? RWXG : RWXO;
        i++;
      } else {
        flag = "ordinary";
        for (; ; i++) {
          const p = mode[i];
          if (p === "r") value |= R_ALL;
          else if (p === "w") value |= W_ALL;
          else if (p === "x") value |= X_ALL;
          else if (p === "X") flag = "x-if-any-x";
          else if (p === "s") value |= SUID | SGID;
          else if (p === "t") value |= SVTX;
          else break;
        }
      }
      changes.push({ op, flag, affected, value, mentioned: mentioned || (affected ? affected & value : value) });
    } while (mode[i] === "=" || mode[i] === "+" || mode[i] === "-");
    if (mode[i] !== ",") break;
    i++;
  }
  return i === mode.length ? changes : undefined;
}

/** The change --reference makes: every bit as the reference file has it. */
export const referenceMode = (mode: number): ModeChange[] => equals(mode & MODE_BITS, MODE_BITS);

/** The permission bits (0o7777) `changes` make of `oldMode` (an st_mode), with `umask` filtering changes that name no who. */
export function adjustMode(oldMode: number, changes: readonly ModeChange[], umask: number): number {
  const dir = (oldMode & S_IFMT) === S_IFDIR;
  let mode = oldMode & MODE_BITS;
  for (const ch of changes) {
    const omit = (dir ? SUID | SGID : 0) & ~ch.mentioned;
    let value = ch.value;
    if (ch.flag === "copy-existing") {
      value &= mode;
      value |= (value & R_ALL ? R_ALL : 0) | (value & W_ALL ? W_ALL : 0) | (value & X_ALL ? X_ALL : 0);
    } else if (ch.flag === "x-if-any-x" && (mode & X_ALL || dir)) value |= X_ALL;
    value &= (ch.affected ? ch.affected : ~umask) & ~omit;
    if (ch.op === "=") {
      const preserved = (ch.affected ? ~ch.affected : 0) | omit;
      mode = (mode & preserved) | value;
    } else if (ch.op === "+") mode |= value;
    else mode &= ~value;
  }
  return mode & MODE_BITS;
}

const TYPE_CHARS: Record<number, string> = { 0o040000: "d", 0o120000: "l", 0o020000: "c", 0o060000: "b", 0o010000: "p", 0o140000: "s" };

/** `-rwxr-xr-x` as `ls -l` shows an st_mode (setuid/setgid as s/S, sticky as t/T). */
export function modeString(mode: number): string {
  const bit = (mask: number, c: string): string => (mode & mask ? c : "-");
  const special = (x: number, s: number, on: string): string => (mode & s ? (mode & x ? on : on.toUpperCase()) : bit(x, "x"));
  return (
    (TYPE_CHARS[mode & S_IFMT] ?? "-") +
    bit(0o400, "r") + bit(0o200, "w") + special(0o100, SUID, "s") +
    bit(0o040, "r") + bit(0o020, "w") + special(0o010, SGID, "s") +
    bit(0o004, "r") + bit(0o002, "w") + special(0o001, SVTX, "t")
  );
}
