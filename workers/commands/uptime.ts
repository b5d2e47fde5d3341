import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { bootTimeMs } from "./user-db.js";

const pad2 = (n: number): string => String(n).padStart(2, "0");

/**
 * procps uptime: the time (UTC, the VM's zone), how long the VM has run, no users (no login records) and a
 * load of 0 (the VM keeps no run queue).
 */
export default function uptime(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "p", short: "p", long: "pretty" },
      { key: "s", short: "s", long: "since" },
    ],
    "\nUsage:\n uptime [options]\n\nOptions:\n -p, --pretty   show uptime in pretty format\n -h, --help     display this help and exit\n -s, --since    system up since\n -V, --version  output version information and exit\n",
    { compatibleWith: "procps-ng 4.0.2" },
  );
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 0) return usageError(p, `extra operand '${parsed.operands[0]}'`);
  const boot = bootTimeMs(p.sys);
  const now = Date.now();
  const up = Math.max(0, Math.floor((now - boot) / 1000));
  const [days, hours, minutes] = [Math.floor(up / 86400), Math.floor((up % 86400) / 3600), Math.floor((up % 3600) / 60)];
  const has = (k: string): boolean => parsed.options.some((o) => o.key === k);
  if (has("s")) {
    const d = new Date(boot);
    p.stdout.write(`${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}\n`);
    return 0;
  }
  if (has("p")) {
    const parts: string[] = [];
    const unit = (n: number, name: string): void => void (n > 0 && parts.push(`${n} ${name}${n === 1 ? "" : "s"}`));
    unit(days, "day");
    unit(hours, "hour");
    unit(minutes, "minute");
    p.stdout.write(`up ${parts.length > 0 ? parts.join(", ") : "0 minutes"}\n`);
    return 0;
  }
  const d = new Date(now);
  const clock = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  let since = days > 0 ? `${days} day${days === 1 ? "" : "s"}, ` : "";
  since += hours > 0 ? `${String(hours).padStart(2)}:${pad2(minutes)}` : `${minutes} min`;
  p.stdout.write(` ${clock} up ${since},  0 users,  load average: 0.00, 0.00, 0.00\n`);
  return 0;
}
