import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// cal and ncal as Debian ships them (the ncal package, 12.1.8: FreeBSD's ncal, which prints cal's layout when run
// as `cal`), in TypeScript: a calendar is formatting over date arithmetic, which needs nothing a C build would
// bring, and the program's C source depends on termcap and the C library's locale tables for its names. Both
// layouts, in the VM's locale (C: English names; weeks from Sunday, from Monday with ncal -M), with the switch from
// the Julian to the Gregorian calendar in September 1752 as Britain made it (ncal -J: the Julian calendar only).
// Not here: ncal's Easter dates (-e, -o) and other countries' switch dates (-s, -p), which fail with a message, and
// -w's week numbers in 1752 before the switch. Today is never highlighted: the VM has no terminals, and cal
// highlights only on one.

const USAGE = `Usage: cal [general options] [-jy] [[month] year]
       cal [general options] [-j] [-m month] [year]
       ncal -C [general options] [-jy] [[month] year]
       ncal -C [general options] [-j] [-m month] [year]
       ncal [general options] [-bhJjpwySM] [-H yyyy-mm-dd] [-s country_code] [-W number of days] [[month] year]
       ncal [general options] [-Jeo] [year]
General options: [-31] [-A months] [-B months] [-d yyyy-mm]
`;

/** sysexits.h's EX_USAGE, cal's status for every error. */
const EX_USAGE = 64;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"];

// Day numbers: the Julian Day Number of a date in the Julian and in the Gregorian calendar (one count of days for
// both, so a weekday is the day number's).
function jdnJulian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
}
function jdnGregorian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}
function fromJdn(j: number, gregorian: boolean): { y: number; m: number; d: number } {
  let b: number;
  let c: number;
  if (gregorian) {
    const a = j + 32044;
    b = Math.floor((4 * a + 3) / 146097);
    c = a - Math.floor((146097 * b) / 4);
  } else {
    b = 0;
    c = j + 32082;
  }
  const d = Math.floor((4 * c + 3) / 1461);
  const e = c - Math.floor((1461 * d) / 4);
  const m = Math.floor((5 * e + 2) / 153);
  return { d: e - Math.floor((153 * m + 2) / 5) + 1, m: m + 3 - 12 * Math.floor(m / 10), y: 100 * b + d - 4800 + Math.floor(m / 10) };
}

/** The last day of the Julian calendar in Britain and its colonies: 2 September 1752 (then came the 14th). */
const SWITCH = jdnJulian(1752, 9, 2);
const dayNumber = (y: number, m: number, d: number): number => (jdnJulian(y, m, d) > SWITCH ? jdnGregorian(y, m, d) : jdnJulian(y, m, d));
const dateOf = (j: number): { y: number; m: number; d: number } => fromJdn(j, j > SWITCH);
/** 0 for Sunday. */
const weekday = (j: number): number => (j + 1) % 7;

/** The six week lines of a month, each as cal builds it before it drops the first column's leading blank. */
function monthLines(y: number, m: number, julian: boolean): string[] {
  const dw = julian ? 4 : 3;
  const first = dayNumber(y, m, 1);
  const last = m === 12 ? dayNumber(y + 1, 1, 1) : dayNumber(y, m + 1, 1);
  const jan1 = dayNumber(y, 1, 1);
  const sunday = first - weekday(first);
  const lines: string[] = [];
  for (let i = 0; i < 6; i++) {
    let line = "";
    for (let j = sunday + 7 * i, k = 0; j < last && k < 7; j++, k++) {
      if (j < first) line += " ".repeat(dw);
      else line += String(julian ? j - jan1 + 1 : dateOf(j).d).padStart(dw);
    }
    lines.push(line.slice(1));
  }
  return lines;
}

const center = (text: string, width: number): string => " ".repeat(Math.max(0, Math.floor((width - text.length) / 2))) + text;

/** Months from (y, m) on, `count` of them, three to a row (two with -j), as cal -C prints them. */
function render(y: number, m: number, count: number, julian: boolean): string {
  const perRow = julian ? 2 : 3;
  const width = julian ? 27 : 20;
  const m1 = y * 12 + m - 1;
  const m2 = m1 + count - 1;
  // The year stands above the rows when they start with a row's first month and fill at least one row.
  const yearHeader = count - 1 >= perRow - 1 && (m1 % 12) % perRow === 0;
  return monthRows(m1, m2, perRow, width, yearHeader, (months) => {
    let out = "";
    for (const n of months) {
      const name = MONTHS[n % 12]!;
      out += `${center(yearHeader ? name : `${name} ${Math.floor(n / 12)}`, width).padEnd(width)}  `;
    }
    out += "\n";
    const sep = julian ? " " : "";
    for (let i = 0; i < months.length; i++) out += `${WEEKDAYS.map((d) => `${sep}${d} `).join("")} `;
    out += "\n";
    const lines = months.map((n) => monthLines(Math.floor(n / 12), (n % 12) + 1, julian));
    for (let i = 0; i < 6; i++) out += `${lines.map((l) => `${l[i]!.padEnd(width)}  `).join("")}\n`;
    return out;
  });
}

/**
 * Months m1..m2 (counted from year 0) in rows of `perRow`, `render` writing each row's months, a blank line
 * between rows, and the year centred above a row whose year is new when `yearHeader`.
 */
function monthRows(m1: number, m2: number, perRow: number, width: number, yearHeader: boolean, render: (months: number[]) => string): string {
  let out = "";
  let previousYear = -1;
  for (let row = m1; row <= m2; row += perRow) {
    const months: number[] = [];
    for (let i = 0; i < perRow && row + i <= m2; i++) months.push(row + i);
    if (row !== m1) out += "\n";
    const rowYear = Math.floor(row / 12);
    if (yearHeader && rowYear !== previousYear) {
      out += `${center(String(rowYear), perRow * width)}\n`;
      previousYear = rowYear;
    }
    out += render(months);
  }
  return out;
}

/**
 * The number of the week that starts on day `start` (a Monday, or with Sunday-first weeks a Sunday): ncal counts
 * the week that holds the day three days in (ISO 8601's Thursday; Wednesday for Sunday weeks) as that day's
 * year's, its first week the one with the year's first such day.
 */
function weekNumber(start: number): number {
  const mid = start + 3;
  return Math.floor((mid - dayNumber(dateOf(mid).y, 1, 1)) / 7) + 1;
}

/**
 * Months from (y, m) on in ncal's layout: a row per weekday (Sunday first, Monday with -M), a column per week,
 * four months to a row (three with -j), the week numbers under them with -w.
 */
function renderVertical(y: number, m: number, count: number, julian: boolean, mondayFirst: boolean, weeks: boolean, dayNumberOf: (y: number, m: number, d: number) => number, dateAt: (j: number) => { d: number }): string {
  const perRow = julian ? 3 : 4;
  const width = julian ? 24 : 18;
  const dw = julian ? 4 : 3;
  const m1 = y * 12 + m - 1;
  const m2 = m1 + count - 1;
  const yearHeader = count - 1 >= perRow - 1 && (m1 % 12) % perRow === 0;
  const names = mondayFirst ? [...WEEKDAYS.slice(1), WEEKDAYS[0]!] : WEEKDAYS;
  return monthRows(m1, m2, perRow, width, yearHeader, (months) => {
    let out = "    ";
    for (const n of months) out += (yearHeader ? MONTHS[n % 12]! : `${MONTHS[n % 12]} ${Math.floor(n / 12)}`).padEnd(width);
    out += "\n";
    const lines = months.map((n) => {
      const [yy, mm] = [Math.floor(n / 12), (n % 12) + 1];
      const first = dayNumberOf(yy, mm, 1);
      const last = mm === 12 ? dayNumberOf(yy + 1, 1, 1) : dayNumberOf(yy, mm + 1, 1);
      const jan1 = dayNumberOf(yy, 1, 1);
      const start = first - ((weekday(first) - (mondayFirst ? 1 : 0) + 7) % 7);
      const rows = Array.from({ length: 7 }, (_, i) => {
        let line = "";
        for (let j = start + i; j < last; j += 7) line += j < first ? " ".repeat(dw) : String(julian ? j - jan1 + 1 : dateAt(j).d).padStart(dw);
        return line;
      });
      let weekLine = "";
      for (let j = start; j < last; j += 7) weekLine += j <= SWITCH ? " ".repeat(dw) : String(weekNumber(j)).padStart(dw);
      return { rows, weekLine };
    });
    for (let i = 0; i < 7; i++) out += `${names[i]}${lines.map((l) => l.rows[i]!.padEnd(width)).join("")}\n`;
    if (weeks) out += `  ${lines.map((l) => l.weekLine.padEnd(width)).join("")}\n`;
    return out;
  });
}

/** strtol's value of the number `text` starts with (0 without one). */
const strtol = (text: string): number => {
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
};

/**
 * A month as -m or the first operand gives it: a number (with f or p: the next or the previous such after
 * `current`, this month or, when a year is given, 0), or a name.
 */
function parseMonth(text: string, current: number, year: number): { m: number; y: number } | undefined {
  const num = /^\s*([+-]?\d+)(.*)$/.exec(text);
  if (num) {
    const n = Number(num[1]);
    const rest = num[2]!;
    let y = year;
    if (/^[fF]/.test(rest)) {
      if (n <= current) y++;
    } else if (/^[pP]/.test(rest)) {
      if (n >= current) y--;
    } else if (rest !== "") return undefined;
    return n < 1 || n > 12 ? undefined : { m: n, y };
  }
  // strptime's %B or %b: a full or abbreviated name, in any case, at the start of the text.
  const lower = text.toLowerCase();
  const i = MONTHS.findIndex((name) => lower.startsWith(name.toLowerCase()) || lower.startsWith(name.slice(0, 3).toLowerCase()));
  return i < 0 ? undefined : { m: i + 1, y: year };
}

export default function cal(p: ScriptProcess): number {
  const { argv, stdout, stderr } = p;
  const a0 = argv[0] ?? "cal";
  // Run as ncal it prints ncal's layout unless -b or -C asks for cal's (as the program picks by its name).
  const ncal = a0.slice(a0.lastIndexOf("/") + 1).startsWith("ncal");
  let vertical = ncal;
  let mondayFirst = false;
  let weeks = false;
  let julianCalendar = false;
  const usage = (): number => (stderr.write(USAGE), EX_USAGE);
  const fail = (message: string): number => (stderr.write(`${ncal ? "ncal" : "cal"}: ${message}\n`), EX_USAGE);
  const args = argv.slice(1);
  if (args[0] === "--version") return stdout.write(versionText(ncal ? "ncal" : "cal", "ncal 12.1.8 (Debian)")), 0;
  // getopt without long options: `--name` is the option `-` (as glibc's getopt says).
  const dashDash = args.indexOf("--");
  if (args.slice(0, dashDash < 0 ? args.length : dashDash).some((a) => a.startsWith("--") && a !== "--")) return stderr.write("cal: invalid option -- '-'\n"), usage();
  const specs = [..."3y1jbCMhwSJeop"].map((c) => ({ key: c, short: c })).concat([..."ABdmHsW"].map((c) => ({ key: c, short: c, arg: "required" as const })));
  let parsed;
  try {
    parsed = getopt(args, specs);
  } catch (e) {
    if (e instanceof UsageError) return stderr.write(`cal: ${e.message}\n`), usage();
    throw e;
  }
  let threeMonths = false;
  let wholeYear = false;
  let julian = false;
  let after = 0;
  let before = 0;
  let monthOption: string | undefined;
  let todayOption: string | undefined;
  for (const { key, value } of parsed.options) {
    // -3 and -y undo each other: the later one counts.
    if (key === "3") [threeMonths, wholeYear] = [true, false];
    else if (key === "y") [wholeYear, threeMonths] = [true, false];
    else if (key === "1") threeMonths = false;
    else if (key === "j") julian = true;
    else if (key === "C" || (ncal && key === "b")) vertical = false;
    else if (ncal && key === "M") mondayFirst = true;
    else if (ncal && key === "S") mondayFirst = false;
    else if (ncal && key === "w") weeks = true;
    else if (ncal && key === "h") continue;
    else if (ncal && key === "J") julianCalendar = true;
    else if (ncal && "eopsHW".includes(key)) return stderr.write(`ncal: -${key}: not supported in agentos-vm's ncal\n`), 1;
    else if (key === "A") after = Math.max(0, strtol(value!));
    else if (key === "B") before = Math.max(0, strtol(value!));
    else if (key === "m") monthOption = value;
    else if (key === "d") todayOption = value;
    // ncal's own options: cal takes none of them.
    else return usage();
  }
  const now = new Date();
  const today = todayOption !== undefined ? { y: strtol(todayOption), m: strtol(todayOption.slice(5)) } : { y: now.getUTCFullYear(), m: now.getUTCMonth() + 1 };
  const operands = parsed.operands;
  if (operands.length > 2) return usage();
  let y = today.y;
  let m = today.m;
  let monthText = monthOption;
  if (operands.length >= 1) {
    const yearText = operands[operands.length - 1]!;
    if (!/^\d*$/.test(yearText)) return fail(`not a valid year ${yearText}`);
    y = Number(yearText);
    if (y < 1 || y > 9999) return fail(`year \`${yearText}' not in range 1..9999`);
    if (operands.length === 2) monthText = operands[0];
  }
  if (monthText !== undefined) {
    const month = parseMonth(monthText, operands.length >= 1 ? 0 : m, y);
    if (!month) return fail(`${monthText} is neither a month number (1..12) nor a name`);
    ({ m, y } = month);
  }
  const givenYear = operands.length >= 1;
  const givenMonth = monthText !== undefined;
  if (threeMonths && givenYear && !givenMonth) return fail("-3 together with a given year but no given month is not supported.");
  let count: number;
  if (wholeYear || (givenYear && !givenMonth)) {
    m = 1;
    count = 12 + after;
  } else {
    if (threeMonths) [before, after] = [before + 1, after + 1];
    count = 1 + after;
  }
  for (; before > 0; before--, count++) if (--m === 0) [m, y] = [12, y - 1];
  if (vertical) {
    const dayNumberOf = julianCalendar ? jdnJulian : dayNumber;
    const dateAt = julianCalendar ? (j: number) => fromJdn(j, false) : dateOf;
    stdout.write(renderVertical(y, m, count, julian, mondayFirst, weeks, dayNumberOf, dateAt));
  } else stdout.write(render(y, m, count, julian));
  return 0;
}
