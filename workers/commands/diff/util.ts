/** What diff and cmp share: GNU's binary test, header times, option words. */
import type { OptionSpec } from "../getopt.js";

/** GNU diff's test in the C locale: a NUL byte in the first buffer of the file. */
export function isBinary(data: Uint8Array): boolean {
  return data.subarray(0, 32768).includes(0);
}

/** The offset of the zone `tz` (TZ) at `ms`, in minutes east of UTC; UTC when unknown or unset. */
function tzOffset(ms: number, tz: string | undefined): number {
  if (!tz) return 0;
  const zone = tz.startsWith(":") ? tz.slice(1) : tz;
  try {
    const f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    const part: Record<string, number> = {};
    for (const p of f.formatToParts(new Date(ms))) if (p.type !== "literal") part[p.type] = Number(p.value);
    const local = Date.UTC(part["year"]!, part["month"]! - 1, part["day"]!, part["hour"]!, part["minute"]!, part["second"]!);
    return Math.round((local - Math.floor(ms / 1000) * 1000) / 60000);
  } catch {
    // A POSIX zone such as EST5 or UTC0: the offset is west of UTC.
    const m = /^[A-Za-z]{3,}([+-]?)(\d{1,2})(?::(\d{2}))?/.exec(zone);
    if (!m) return 0;
    const west = Number(m[2]) * 60 + Number(m[3] ?? 0);
    return m[1] === "-" ? west : -west;
  }
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** Whether the locale of `category` is other than C/POSIX (gnulib's hard_locale). */
export function hardLocale(env: Readonly<Record<string, string>>, category: string): boolean {
  const name = env["LC_ALL"] || env[category] || env["LANG"] || "C";
  return name !== "C" && name !== "POSIX";
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * An mtime as GNU diff prints it in -u/-c headers: `2024-01-15 10:30:00.123000000 +0000`, or for -c in
 * the C locale `Mon Jan 15 10:30:00 2024`.
 */
export function formatTime(ms: number, tz: string | undefined, ctime = false): string {
  const off = tzOffset(ms, tz);
  const whole = Math.floor(ms);
  const d = new Date(whole + off * 60000);
  if (ctime)
    return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
  const frac = Math.round((ms - Math.floor(ms / 1000) * 1000) * 1e6);
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(frac, 9)} ${sign}${pad(Math.floor(a / 60))}${pad(a % 60)}`
  );
}

/**
 * The words of the command line that are options (with their separate arguments), in order, as GNU's
 * getopt leaves them before the operands: what diff echoes in its "diff -r a b" lines.
 */
export function scanOptionWords(args: readonly string[], specs: readonly OptionSpec[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      words.push(arg);
      break;
    }
    if (arg.startsWith("--")) {
      words.push(arg);
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const spec = specs.find((s) => s.long === name) ?? specs.find((s) => s.long?.startsWith(name));
      if (spec?.arg === "required" && eq < 0 && i + 1 < args.length) words.push(args[++i]!);
    } else if (arg.startsWith("-") && arg !== "-") {
      words.push(arg);
      for (let j = 1; j < arg.length; j++) {
        const spec = specs.find((s) => s.short === arg[j]);
        if (spec?.arg) {
          if (j === arg.length - 1 && spec.arg === "required" && i + 1 < args.length) words.push(args[++i]!);
          break;
        }
      }
    }
  }
  return words;
}
