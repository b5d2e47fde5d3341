import type { ScriptProcess } from "../script-host.js";
import { versionText } from "../../src/gnu/version.js";
import { nameOf, passwd, USER } from "./user-db.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ListedFile as File } from "../../src/abi/listed-file.js";

// lsof 4.95 in TypeScript: it lists the VM's open files from the kernel's fd tables (Sys.OPENFILES), which no
// build of lsof could read (it reads /proc, which the VM does not have). Each running process's working and root
// directories (cwd, rtd), then its fds: files, directories, devices, pipes, sockets (IPv4, IPv6, unix) and the
// kernel's own inodes (pidfds, signal queues) in lsof's columns. Selection: -p, -c, -u, -d, -i (family, protocol,
// host and port), file and directory names, -a to require all; -t lists pids only; -n and -P keep addresses and
// ports numeric (the VM has no service names: ports are always numbers). The VM maps no memory into processes
// (no `mem` or `txt` rows) and its devices and inodes are the VM file system's.

const HELP = `lsof 4.95 (agentos-vm)
 usage: [-?adhlnPtvw] [-c c] [-d s] [-i [i]] [-p s] [-u s] [--] [names]
Defaults in parentheses; comma-separated set (s) items; dash-separated ranges.
  -?|-h list help          -a AND selections (OR)     -c c  cmd name begins with c
  -d s  select by FD set   -i select IPv[46] files    -l list UID numbers
  -n no host names         -P no port names           -p s  exclude(^)|select PIDs
  -t terse listing         -u s  exclude(^)|select login|UID set s
  -v list version info     -w disable warnings
  names  select named files or files on named file systems
`;


/** -i's selection: [46][protocol][@host][:port]. */
interface InetSpec {
  family?: "IPv4" | "IPv6";
  proto?: string;
  host?: string;
  port?: number;
}

function parseInet(text: string): InetSpec | undefined {
  const m = /^([46])?(tcp|udp)?(?:@([^:]+|\[[^\]]+\]))?(?::(\d+))?$/i.exec(text);
  if (!m) return undefined;
  return {
    ...(m[1] && { family: m[1] === "4" ? ("IPv4" as const) : ("IPv6" as const) }),
    ...(m[2] && { proto: m[2].toUpperCase() }),
    ...(m[3] && { host: m[3].replace(/^\[|\]$/g, "") }),
    ...(m[4] && { port: Number(m[4]) }),
  };
}

export default function lsof(p: ScriptProcess): number {
  const { sys, argv, stdout, stderr } = p;
  const args = argv.slice(1);
  let terse = false;
  let and = false;
  let numericHosts = false;
  let numericUids = false;
  const pids: number[] = [];
  const commands: string[] = [];
  const users: string[] = [];
  const fdSet: string[] = [];
  const inet: InetSpec[] = [];
  let inetAll = false;
  const names: string[] = [];
  const fail = (message: string): number => (stderr.write(`lsof: ${message}\n${HELP}`), 1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      names.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      names.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      const value = (): string | undefined => {
        const v = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
        j = arg.length;
        return v;
      };
      if (c === "t") terse = true;
      else if (c === "a") and = true;
      else if (c === "n") numericHosts = true;
      else if (c === "l") numericUids = true;
      else if (c === "P" || c === "w" || c === "b" || c === "V") continue;
      else if (c === "h" || c === "?") return stderr.write(HELP), 0;
      else if (c === "v") return stderr.write(versionText("lsof", "lsof 4.95")), 0;
      else if (c === "i") {
        inetAll = true;
        // -i's argument is optional and must be attached or the next word that looks like one.
        const rest = j + 1 < arg.length ? arg.slice(j + 1) : args[i + 1] !== undefined && parseInet(args[i + 1]!) && !/^\d+$/.test(args[i + 1]!) ? args[++i] : undefined;
        j = arg.length;
        if (rest !== undefined) {
          const spec = parseInet(rest);
          if (!spec) return fail(`unacceptable Internet address: ${rest}`);
          inet.push(spec);
        }
      } else if (c === "p" || c === "c" || c === "u" || c === "d") {
        const v = value();
        if (v === undefined) return fail(`missing ${c === "p" ? "process ID" : c === "c" ? "command" : c === "u" ? "login" : "file descriptor"} list for -${c}`);
        for (const item of v.split(",").filter(Boolean)) {
          if (c === "p") {
            if (!/^\d+$/.test(item)) return fail(`illegal process ID: ${item}`);
            pids.push(Number(item));
          } else if (c === "c") commands.push(item);
          else if (c === "u") users.push(item);
          else fdSet.push(item);
        }
      } else return fail(`unknown option: -${c}`);
    }
  }

  const accounts = passwd(sys);
  const user = numericUids ? String(USER.uid) : nameOf(accounts, USER.uid);
  const listed = sys.openFiles();

  // Named files: each must exist; a file matches by its path, a directory also as a cwd or rtd.
  const wanted: Array<{ given: string; path: string; dev: number; ino: number }> = [];
  let status = 0;
  for (const name of names) {
    try {
      const st = sys.stat(name);
      wanted.push({ given: name, path: sys.resolve(name).replace(/\/+$/, "") || "/", dev: st.dev, ino: st.ino });
    } catch (e) {
      stderr.write(`lsof: status error on ${name}: ${strerror(e)}\n`);
      status = 1;
    }
  }
  if (names.length > 0 && wanted.length === 0) return 1;

  const hostsNames = new Map<string, string>();
  if (!numericHosts) {
    try {
      for (const line of Buffer.from(sys.readFile("/etc/hosts")).toString("utf8").split("\n")) {
        const [addr, name] = line.replace(/#.*/, "").trim().split(/\s+/);
        if (addr && name && !hostsNames.has(addr)) hostsNames.set(addr, name);
      }
    } catch {
      // No /etc/hosts: addresses stay numeric.
    }
  }
  const host = (address: string): string => {
    if (address === "0.0.0.0" || address === "::") return "*";
    const shown = hostsNames.get(address) ?? address;
    return shown.includes(":") ? `[${shown}]` : shown;
  };
  const endpoint = (a: { address: string; port: number } | undefined): string => (a ? `${host(a.address)}:${a.port === 0 ? "*" : a.port}` : "*:*");

  const inetMatches = (f: File): boolean => {
    if (f.type !== "IPv4" && f.type !== "IPv6") return false;
    if (inet.length === 0) return true;
    return inet.some(
      (s) =>
        (s.family === undefined || s.family === f.type) &&
        (s.proto === undefined || s.proto === f.proto) &&
        (s.port === undefined || f.local?.port === s.port || f.remote?.port === s.port) &&
        (s.host === undefined || [f.local?.address, f.remote?.address].some((a) => a === s.host || (a !== undefined && hostsNames.get(a) === s.host))),
    );
  };
  const fdMatches = (f: File): boolean =>
    fdSet.some((item) => {
      const range = /^(\d+)-(\d+)$/.exec(item);
      if (range) return /^\d+$/.test(f.fd) && Number(f.fd) >= Number(range[1]) && Number(f.fd) <= Number(range[2]);
      return item === f.fd;
    });
  /** The named file `f` is, if any: lsof then shows the name as it was given. */
  const namedAs = (f: File): string | undefined => wanted.find((w) => f.name === w.path || (f.node === w.ino && f.dev === w.dev && f.type !== "IPv4" && f.type !== "IPv6"))?.given;

  const rows: Array<{ pid: number; command: string; file: File }> = [];
  for (const proc of listed) {
    const procSelected: boolean[] = [];
    if (pids.length > 0) procSelected.push(pids.includes(proc.pid));
    if (commands.length > 0) procSelected.push(commands.some((c) => proc.command.startsWith(c)));
    if (users.length > 0) procSelected.push(users.some((u) => u === user || u === String(USER.uid) || u === nameOf(accounts, USER.uid)));
    for (const raw of proc.files) {
      const f = raw as unknown as File;
      const tests = [...procSelected];
      if (inetAll) tests.push(inetMatches(f));
      const given = namedAs(f);
      if (wanted.length > 0) tests.push(given !== undefined);
      // -d narrows what the other selections chose (lsof ANDs it with them).
      if (fdSet.length > 0 && !fdMatches(f)) continue;
      const selected = tests.length === 0 || (and ? tests.every(Boolean) : tests.some(Boolean));
      if (selected) rows.push({ pid: proc.pid, command: proc.command.slice(0, 9), file: given !== undefined && f.type !== "unix" ? { ...f, name: given } : f });
    }
  }
  if (rows.length === 0) return 1;
  if (terse) {
    stdout.write([...new Set(rows.map((r) => r.pid))].map((pid) => `${pid}\n`).join(""));
    return status;
  }

  const device = (dev: number | undefined): string => (dev === undefined ? "" : `${(dev >> 8) & 0xfff},${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`);
  const cells = rows.map(({ pid, command, file: f }) => {
    const inetFile = f.type === "IPv4" || f.type === "IPv6";
    const name = inetFile
      ? `${f.remote ? `${endpoint(f.local)}->${endpoint(f.remote)}` : endpoint(f.local)}${f.state && f.proto === "TCP" ? ` (${f.state})` : ""}`
      : f.type === "unix"
        ? `${f.name}${f.name ? " " : ""}type=${f.proto}${f.state && f.state !== "CLOSED" && f.state !== "ESTABLISHED" ? ` (${f.state})` : ""}`
        : f.name;
    return [
      command,
      String(pid),
      user,
      f.fd,
      f.access,
      f.type,
      inetFile || f.type === "unix" ? String(f.node ?? "") : device(f.dev),
      f.size !== undefined && (f.type === "REG" || f.type === "DIR") ? String(f.size) : "0t0",
      inetFile ? (f.proto ?? "") : String(f.node ?? ""),
      name,
    ];
  });
  const width = (k: number, min: number): number => Math.max(min, ...cells.map((c) => c[k]!.length));
  const [cw, pw, uw, fw, tw, dw, sw, nw] = [width(0, 7), width(1, 3), width(2, 4), width(3, 4), width(5, 4), width(6, 6), width(7, 8), width(8, 4)];
  const line = (c: string[], access: string): string =>
    `${c[0]!.padEnd(cw)} ${c[1]!.padStart(pw)} ${c[2]!.padEnd(uw)} ${c[3]!.padStart(fw)}${access} ${c[5]!.padStart(tw)} ${c[6]!.padStart(dw)} ${c[7]!.padStart(sw)} ${c[8]!.padStart(nw)} ${c[9]}`;
  stdout.write(`${line(["COMMAND", "PID", "USER", "FD", "", "TYPE", "DEVICE", "SIZE/OFF", "NODE", "NAME"], "  ")}\n`);
  for (const c of cells) stdout.write(`${line(c, `${(c[4] || " ").padEnd(1)} `)}\n`);
  return status;
}
