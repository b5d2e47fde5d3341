import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { hostname as hostName } from "./user-db.js";
import { versionText } from "../../src/gnu/version.js";

const USAGE = `Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name
`;

/**
 * net-tools hostname: the VM's name (/etc/hostname), which has no domain and only the loopback address;
 * setting it needs root, which the VM's user is not.
 */
export default function hostname({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), [
      ..."aAdfiIsyb".split("").map((c) => ({ key: c, short: c })),
      { key: "F", short: "F", long: "file", arg: "required" as const },
      { key: "f", long: "fqdn" },
      { key: "f", long: "long" },
      { key: "s", long: "short" },
      { key: "d", long: "domain" },
      { key: "i", long: "ip-address" },
      { key: "I", long: "all-ip-addresses" },
      { key: "help", short: "h", long: "help" },
      { key: "version", short: "V", long: "version" },
    ]);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`hostname: ${e.message}\n${USAGE}`);
    return 255;
  }
  const keys = parsed.options.map((o) => o.key);
  if (keys.includes("help")) return stdout.write(USAGE), 0;
  if (keys.includes("version")) return stdout.write(versionText("hostname", "hostname 3.23")), 0;
  if (parsed.operands.length > 0 || keys.includes("F")) {
    stderr.write("hostname: you must be root to change the host name\n");
    return 1;
  }
  const name = hostName(sys);
  const last = keys.filter((k) => "aAdfiIsy".includes(k)).pop();
  if (last === "d" || last === "y" || last === "a") return last === "y" ? (stderr.write("domainname: Local domain name not set\n"), 1) : 0;
  if (last === "i") return stdout.write("127.0.0.1\n"), 0;
  if (last === "I") return stdout.write("\n"), 0;
  if (last === "s") return stdout.write(`${name.split(".")[0]}\n`), 0;
  stdout.write(`${name}\n`);
  return 0;
}
