import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { SysError } from "../system.js";
import { AF, SOCK, ScriptNet, type NetAddress } from "../script-net.js";
import { FdFlags } from "../../src/abi/wasi.js";
import { Sys } from "../../src/abi/syscalls.js";
import { SHUT, SO, SOL_SOCKET } from "../../src/abi/net.js";
import { strerrorOf } from "../../src/gnu/strerror.js";
import { errnoName } from "../../src/abi/errno.js";
import { isIP } from "node:net";
import { versionText } from "../../src/gnu/version.js";

// netcat-openbsd 1.219 (Debian's nc), in TypeScript over the VM's kernel sockets. It is a loop of poll, read and
// write between stdin/stdout and one socket, which the runtime's commands reach through the kernel's socket calls
// directly (workers/script-net.ts); the C program needs libbsd and its OpenBSD compatibility layer (pledge,
// strtonum, readpassphrase, libtls) besides. TCP and UDP over IPv4 and IPv6, Unix sockets (-U), client and server
// (-l, -k), port scans (-z, port ranges), -N and -q on end of input, -w, -d, -C, -n, -s, -p, -4/-6, and -v's
// messages; outbound connections go through the VM's network policy as every guest's do. Not here: proxies (-x,
// -X, -P), TLS (-c, -Z …), telnet negotiation (-t), -I/-O/-M/-m/-T/-V/-W/-i: they fail with a message; -v with
// -u does not send netcat's probe datagrams ("XXXX"). Service names in -v's messages come from /etc/services,
// which the VM does not have: `*`, as netcat prints for a port without one.

const USAGE = `usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]
\t  [-m minttl] [-O length] [-P proxy_username] [-p source_port]
\t  [-q seconds] [-s sourceaddr] [-T keyword] [-V rtable] [-W recvlimit]
\t  [-w timeout] [-X proxy_protocol] [-x proxy_address[:port]]
\t  [destination] [port]
`;

const FLAGS = "46CDdFhklNnrStUuvZz";
const WITH_ARG = "IiMmOPpqsTVWwXx";
const UNSUPPORTED = new Set([..."FiIMmOPSTtVWXxZ"]);

class NcError extends Error {}

export default function nc(p: ScriptProcess): number {
  const { sys, argv, stdout, stderr } = p;
  const net = new ScriptNet(sys);
  const say = (line: string): void => {
    stderr.write(`${line}\n`);
    stderr.flush();
  };
  const usage = (): number => (stderr.write(USAGE), 1);
  let parsed;
  try {
    parsed = getopt(argv.slice(1), [...[...FLAGS].map((c) => ({ key: c, short: c })), ...[...WITH_ARG].map((c) => ({ key: c, short: c, arg: "required" as const }))]);
  } catch (e) {
    if (e instanceof UsageError) return stderr.write(`nc: ${e.message}\n`), usage();
    throw e;
  }
  const o = new Map<string, string>();
  for (const { key, value } of parsed.options) {
    // netcat's -h names the program first: here what it is (src/gnu/version.ts), then the usage.
    if (key === "h") return stderr.write(`${versionText("nc", "netcat-openbsd 1.219")}${USAGE}`), 0;
    if (UNSUPPORTED.has(key)) return say(`nc: -${key}: not supported in agentos-vm's nc`), 1;
    o.set(key, value ?? "");
  }
  const listen = o.has("l");
  const udp = o.has("u");
  const unix = o.has("U");
  const verbose = o.has("v");
  const numeric = o.has("n");
  const scan = o.has("z");
  const family = o.has("4") ? 4 : o.has("6") ? 6 : 0;
  const operands = parsed.operands;

  const seconds = (key: string, what: string): number | undefined => {
    const text = o.get(key);
    if (text === undefined) return undefined;
    if (!/^-?\d+$/.test(text) || Number(text) > 2 ** 31 - 1) throw new NcError(`${what} invalid: ${text}`);
    return Number(text);
  };

  /** The name /etc/hosts gives an address (getnameinfo without -n), else the address. */
  const nameOf = (address: string): string => {
    if (numeric) return address;
    try {
      for (const line of Buffer.from(sys.readFile("/etc/hosts")).toString("utf8").split("\n")) {
        const [addr, name] = line.replace(/#.*/, "").trim().split(/\s+/);
        if (addr === address && name) return name;
      }
    } catch {
      // No /etc/hosts: the address.
    }
    return address;
  };

  /** A host's addresses: the numeric one, or the resolver's (not with -n). */
  const addressesOf = (host: string, port: string): NetAddress[] => {
    if (isIP(host)) return [{ family: isIP(host) === 6 ? AF.INET6 : AF.INET, address: host, port: 0 }];
    const fail = (): never => {
      throw new NcError(`getaddrinfo for host "${host}" port ${port}: Name or service not known`);
    };
    if (numeric) return fail();
    try {
      const found = net.resolve(host, family).filter((a) => family === 0 || (family === 4) === (a.family === AF.INET));
      return found.length > 0 ? found : fail();
    } catch (e) {
      if (e instanceof SysError) {
        if (e.code === "ETIMEDOUT") throw new NcError(`getaddrinfo for host "${host}" port ${port}: Temporary failure in name resolution`);
        return fail();
      }
      throw e;
    }
  };

  const portNumber = (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new NcError(`port number invalid: ${text}`);
    return Number(text);
  };
  /** A port or a range `low-high`, as netcat scans them. */
  const portRange = (text: string): number[] => {
    const m = /^(\d+)-(\d+)$/.exec(text);
    if (!m) return [portNumber(text)];
    let [lo, hi] = [portNumber(m[1]!), portNumber(m[2]!)];
    if (lo > hi) [lo, hi] = [hi, lo];
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  };

  /**
   * Copies stdin to the socket and the socket to stdout until the peer's end of file (or, after end of input,
   * -q's seconds); -N shuts the socket's sending side down at end of input; -w ends an idle connection.
   */
  const readWrite = (fd: number, firstData?: Uint8Array): void => {
    if (firstData) stdout.write(firstData), stdout.flush();
    const quitAfter = seconds("q", "quit timeout") ?? -1;
    const idle = seconds("w", "timeout");
    let stdinOpen = !o.has("d");
    let stdinClosedAt: number | undefined;
    const crlf = o.has("C");
    const endOfInput = (): void => {
      stdinOpen = false;
      stdinClosedAt = Date.now();
      if (o.has("N") && !udp) {
        try {
          net.shutdown(fd, SHUT.WR);
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
        }
      }
    };
    for (;;) {
      if (!stdinOpen && quitAfter >= 0 && stdinClosedAt !== undefined) {
        const left = quitAfter * 1000 - (Date.now() - stdinClosedAt);
        if (left <= 0) return;
      }
      const fds = [...(stdinOpen ? [{ fd: 0 }] : []), { fd }];
      let timeout: number | undefined = idle !== undefined && idle > 0 ? idle * 1000 : undefined;
      if (!stdinOpen && quitAfter >= 0 && stdinClosedAt !== undefined) {
        const left = quitAfter * 1000 - (Date.now() - stdinClosedAt);
        timeout = timeout === undefined ? left : Math.min(timeout, left);
      }
      const ready = net.poll(fds, timeout);
      if (!ready.some((r) => r.ready || r.hangup)) {
        if (!stdinOpen && quitAfter >= 0) return;
        if (idle !== undefined && idle > 0) return;
        continue;
      }
      if (stdinOpen && (ready[0]!.ready || ready[0]!.hangup)) {
        const data = sys.read(0, 16384);
        if (data.length === 0) endOfInput();
        else net.send(fd, crlf ? Buffer.from(Buffer.from(data).toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1") : data);
      }
      const n = ready[ready.length - 1]!;
      if (n.ready || n.hangup) {
        let data: Uint8Array;
        try {
          data = net.recv(fd);
        } catch (e) {
          if (e instanceof SysError && (e.code === "ECONNRESET" || e.code === "ENOTCONN")) return;
          throw e;
        }
        if (data.length === 0 && !udp) return;
        stdout.write(data);
        stdout.flush();
      }
    }
  };

  /** `connect` with -w's limit on the wait: a non-blocking connect, a poll for writing, then SO_ERROR. */
  const connectWithin = (fd: number, to: { address: string; port: number }): void => {
    const limit = seconds("w", "timeout");
    if (limit === undefined || limit <= 0) return net.connect(fd, to);
    sys.k.call(Sys.SETFL, [fd, FdFlags.NONBLOCK]);
    try {
      net.connect(fd, to);
    } catch (e) {
      if (!(e instanceof SysError) || e.code !== "EINPROGRESS") throw e;
      const [ready] = net.poll([{ fd, write: true }], limit * 1000);
      if (!ready!.ready) throw new SysError("ETIMEDOUT");
      const err = net.getOption(fd, SOL_SOCKET, SO.ERROR);
      if (err !== 0) throw new SysError(errnoName(err));
    } finally {
      sys.k.call(Sys.SETFL, [fd, 0]);
    }
  };

  try {
    seconds("q", "quit timeout");
    seconds("w", "timeout");
    const type = udp ? SOCK.DGRAM : SOCK.STREAM;
    const proto = udp ? "udp" : "tcp";
    if (unix) {
      const path = operands[0];
      if (path === undefined || operands.length > 1) return usage();
      const fd = net.socket(AF.UNIX, type);
      if (listen) {
        net.bind(fd, { address: path, port: 0 });
        if (udp) return readWrite(fd), 0;
        net.listen(fd, 1);
        if (verbose) say(`Bound on ${path}`), say(`Listening on ${path}`);
        do {
          const conn = net.accept(fd);
          if (verbose) say(`Connection received on ${path}`);
          readWrite(conn.fd);
          sys.close(conn.fd);
        } while (o.has("k"));
        return 0;
      }
      try {
        net.connect(fd, { address: path, port: 0 });
      } catch (e) {
        if (e instanceof SysError) return say(`nc: ${path}: ${strerrorOf(e.code)}`), 1;
        throw e;
      }
      if (!scan) readWrite(fd);
      return 0;
    }

    if (listen) {
      if (operands.length > 2) return usage();
      const portText = operands.length > 0 ? operands[operands.length - 1]! : o.get("p");
      if (portText === undefined) throw new NcError("missing port number");
      const port = portNumber(portText);
      const hostText = operands.length === 2 ? operands[0]! : o.get("s");
      const bindTo = hostText !== undefined ? addressesOf(hostText, portText)[0]! : { family: family === 6 ? AF.INET6 : AF.INET, address: family === 6 ? "::" : "0.0.0.0", port: 0 };
      const fd = net.socket(bindTo.family, type);
      try {
        net.bind(fd, { address: bindTo.address, port });
      } catch (e) {
        if (e instanceof SysError) throw new NcError(strerrorOf(e.code));
        throw e;
      }
      const local = net.name(fd);
      if (udp) {
        if (verbose) say(`Bound on ${nameOf(local.address)} ${local.port}`);
        const first = net.recvFrom(fd);
        net.connect(fd, first.from);
        if (verbose) say(`Connection received on ${nameOf(first.from.address)} ${first.from.port}`);
        readWrite(fd, first.data);
        return 0;
      }
      net.listen(fd, 1);
      if (verbose) say(`Listening on ${nameOf(local.address)} ${local.port}`);
      do {
        const conn = net.accept(fd);
        if (verbose) say(`Connection received on ${nameOf(conn.peer.address)} ${conn.peer.port}`);
        readWrite(conn.fd);
        sys.close(conn.fd);
      } while (o.has("k"));
      return 0;
    }

    if (operands.length === 0) return usage();
    if (operands.length === 1) throw new NcError("missing port number");
    if (operands.length > 2) return usage();
    const [host, portText] = operands as [string, string];
    const ports = portRange(portText);
    const targets = addressesOf(host, portText);
    let status = 1;
    for (const port of ports) {
      let connected: number | undefined;
      for (const target of targets) {
        const fd = net.socket(target.family, type);
        try {
          if (o.has("s") || o.has("p")) net.bind(fd, { address: o.get("s") ?? (target.family === AF.INET6 ? "::" : "0.0.0.0"), port: o.has("p") ? portNumber(o.get("p")!) : 0 });
          connectWithin(fd, { address: target.address, port });
          connected = fd;
          break;
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          sys.close(fd);
          if (verbose) say(`nc: connect to ${target.address} port ${port} (${proto}) failed: ${strerrorOf(e.code)}`);
        }
      }
      if (connected === undefined) continue;
      status = 0;
      if (verbose) {
        const shown = isIP(host) ? host : `${host} (${net.name(connected, true).address.replace(/^::ffff:/, "")})`;
        say(`Connection to ${shown} ${port} port [${proto}/*] succeeded!`);
      }
      if (!scan) readWrite(connected);
      sys.close(connected);
    }
    return status;
  } catch (e) {
    if (e instanceof NcError) return say(`nc: ${e.message}`), 1;
    if (e instanceof SysError) return say(`nc: ${strerrorOf(e.code)}`), 1;
    throw e;
  }
}
