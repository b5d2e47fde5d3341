// The network policy's pieces on their own (src/net): the entry grammar, the address classes (network.md §8's
// SSRF vectors), the resolver's pin table with a fake lookup (no DNS leaves the machine), the function form.
import { describe, expect, it } from "vitest";
import { HOST_GATEWAY_ADDRESS, isSpecialAddress } from "../src/net/address-class.js";
import { NetworkPolicy, normalizeName, parseEntry, type NetworkRequest } from "../src/net/policy.js";
import { Resolver, type ResolvedAddress } from "../src/net/resolver.js";
import { VmNetwork } from "../src/net/vm-network.js";

const allow = (...entries: string[]): NetworkPolicy => new NetworkPolicy(entries);
const connect = (p: NetworkPolicy, address: string, port: number, names: string[] = []) => p.connect(address, port, names, "tcp", 1);

describe("entry grammar", () => {
  it("takes every documented form", () => {
    for (const e of [
      "example.com",
      "Example.COM.",
      "example.com:8443",
      "example.com:*",
      "*.example.com",
      "*.example.com:22",
      "*.example.com:*",
      "1.2.3.4",
      "1.2.3.4:80",
      "10.0.0.0/8",
      "10.0.0.0/8:5432",
      "10.0.0.0/8:*",
      "2001:db8::1",
      "[2001:db8::1]",
      "[2001:db8::1]:443",
      "[2001:db8::/32]:*",
      "2001:db8::/32",
      "host.agentos.internal:3000",
      "bücher.example",
    ])
      expect(() => parseEntry(e), e).not.toThrow();
  });

  it("refuses bad entries with a TypeError naming them", () => {
    for (const e of [
      "",
      "example.com:0",
      "example.com:65536",
      "example.com:-1",
      "example.com:http",
      "exa mple.com",
      "ex_ample..com",
      "*",
      "*.",
      "host.agentos.internal",
      "10.0.0.0/33",
      "[2001:db8::1",
      "[1.2.3.4]:80",
      "1.2.3.4/8x",
      "fe80::1%eth0",
      "127.1",
      "0x7f.0.0.1",
    ])
      expect(() => parseEntry(e), JSON.stringify(e)).toThrow(TypeError);
    expect(() => new NetworkPolicy("example.com")).toThrow(TypeError);
    expect(() => new NetworkPolicy([42])).toThrow(TypeError);
    expect(() => new VmNetwork({ allow: [], _lookup: "8.8.8.8" as never }, () => "")).toThrow(/_lookup must be a function/);
  });

  it("normalizes names: case, one trailing dot, IDNA", () => {
    expect(normalizeName("WWW.Example.COM.")).toBe("www.example.com");
    expect(normalizeName("bücher.example")).toBe("xn--bcher-kva.example");
    expect(normalizeName("a..b")).toBeUndefined();
    expect(normalizeName("a/b")).toBeUndefined();
    expect(normalizeName("x".repeat(64) + ".com")).toBeUndefined();
  });
});

describe("address classes", () => {
  it("special ranges, IPv4 inside IPv6 included", () => {
    for (const a of [
      "127.0.0.1",
      "127.255.255.254",
      "0.0.0.0",
      "10.1.2.3",
      "100.100.100.200",
      "169.254.169.254",
      "169.254.170.2",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "168.63.129.16",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "::127.0.0.1",
      "64:ff9b::7f00:1",
      "64:ff9b:1::a9fe:a9fe",
      "2002:7f00:1::",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "fd00:ec2::254",
      "fe80::1",
      "ff02::1",
      "2001:db8::1",
      // not numeric the kernel's way: never reached as public
      "127.1",
      "0177.0.0.1",
      "2130706433",
      "fe80::1%eth0",
    ])
      expect(isSpecialAddress(a), a).toBe(true);
    for (const a of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:93.184.216.34"]) expect(isSpecialAddress(a), a).toBe(false);
  });
});

describe("policy decisions", () => {
  it("names: exact, ports 80 and 443 by default, :PORT, :*", () => {
    const p = allow("example.com", "api.example.com:8443", "any.example.com:*");
    expect(p.resolve("example.com", 1)).toBe(true);
    expect(p.resolve("www.example.com", 1)).toBe("not allowed");
    const ip = "93.184.216.34";
    expect(connect(p, ip, 443, ["example.com"])).toBe(true);
    expect(connect(p, ip, 80, ["example.com"])).toBe(true);
    expect(connect(p, ip, 22, ["example.com"])).toBe("not allowed");
    expect(connect(p, ip, 8443, ["api.example.com"])).toBe(true);
    expect(connect(p, ip, 443, ["api.example.com"])).toBe("not allowed");
    expect(connect(p, ip, 1, ["any.example.com"])).toBe(true);
    expect(connect(p, ip, 443, [])).toBe("not allowed"); // the address alone is not a name
  });

  it("wildcards: any depth, on a label boundary, not the apex", () => {
    const p = allow("*.example.com");
    expect(p.resolve("a.example.com", 1)).toBe(true);
    expect(p.resolve("a.b.c.example.com", 1)).toBe(true);
    expect(p.resolve("example.com", 1)).toBe("not allowed");
    expect(p.resolve("evilexample.com", 1)).toBe("not allowed");
    expect(p.resolve("example.com.evil.net", 1)).toBe("not allowed");
  });

  it("IP and CIDR entries open their addresses, special ones included", () => {
    const p = allow("10.0.0.0/8:5432", "192.168.1.10", "[fd00::/8]:*", "93.184.216.34:*");
    expect(connect(p, "10.9.8.7", 5432)).toBe(true);
    expect(connect(p, "10.9.8.7", 5433)).toBe("special address");
    expect(connect(p, "192.168.1.10", 443)).toBe(true);
    expect(connect(p, "192.168.1.10", 22)).toBe("special address");
    expect(connect(p, "fd12::1", 9)).toBe(true);
    expect(connect(p, "93.184.216.34", 9)).toBe(true);
    expect(connect(p, "169.254.169.254", 80)).toBe("special address");
    expect(p.coversAddress("10.1.1.1")).toBe(true);
    expect(p.coversAddress("127.0.0.1")).toBe(false);
  });

  it("a name entry never opens a special address, even one the name is pinned for", () => {
    const p = allow("example.com:*");
    expect(connect(p, "127.0.0.1", 80, ["example.com"])).toBe("special address");
    expect(connect(p, "169.254.169.254", 80, ["example.com"])).toBe("special address");
  });

  it("host.agentos.internal: its own entry with its port, never a wildcard's", () => {
    expect(connect(allow("host.agentos.internal:3000"), HOST_GATEWAY_ADDRESS, 3000)).toBe(true);
    expect(connect(allow("host.agentos.internal:3000"), HOST_GATEWAY_ADDRESS, 3001)).toBe("not allowed");
    expect(connect(allow("*.internal:*", "*.agentos.internal:*"), HOST_GATEWAY_ADDRESS, 3000)).toBe("not allowed");
  });

  it("function form: asked after the special classes; only `true` allows; a throw or rejection denies", async () => {
    const asked: NetworkRequest[] = [];
    const p = new NetworkPolicy((r: NetworkRequest) => {
      asked.push(r);
      if (r.host === "throws.example") throw new Error("no");
      if (r.host === "later.example") return Promise.resolve(true);
      if (r.host === "rejects.example") return Promise.reject(new Error("no"));
      return (r.host === "ok.example" ? true : (1 as unknown)) as boolean;
    });
    expect(p.resolve("ok.example", 7)).toBe(true);
    expect(p.resolve("other.example", 7)).toBe("not allowed"); // 1 is not true
    expect(p.resolve("throws.example", 7)).toBe("not allowed");
    expect(await p.resolve("later.example", 7)).toBe(true);
    expect(await p.resolve("rejects.example", 7)).toBe("not allowed");
    expect(connect(p, "127.0.0.1", 80, ["ok.example"])).toBe("special address");
    expect(await connect(p, "93.184.216.34", 443, ["ok.example"])).toBe(true);
    expect(asked).toContainEqual({ kind: "connect", host: "ok.example", address: "93.184.216.34", port: 443, protocol: "tcp", pid: 1 });
    expect(asked).toContainEqual({ kind: "resolve", host: "ok.example", protocol: "dns", pid: 7 });
    expect(asked.filter((r) => r.address === "127.0.0.1")).toEqual([]);
  });
});

describe("resolver", () => {
  const HOSTS = "127.0.0.1 localhost\n198.18.0.1 host.agentos.internal\n10.0.0.5 db.local # a comment\n";
  function setup(policy: NetworkPolicy, answers: Record<string, ResolvedAddress[]>) {
    const queries: string[] = [];
    const denials: string[] = [];
    const r = new Resolver(
      () => HOSTS,
      () => policy,
      async (name) => {
        queries.push(name);
        const a = answers[name];
        if (!a) throw Object.assign(new Error("nx"), { code: "ENOTFOUND" });
        return a;
      },
      (name, reason) => denials.push(`${name}: ${reason}`),
    );
    return { r, queries, denials };
  }
  const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });

  it("a denied name makes no query and is ENOENT (EAI_NONAME)", async () => {
    const { r, queries, denials } = setup(allow("example.com"), { "evil.com": [v4("93.184.216.34")] });
    await expect(r.resolve("evil.com", 0, 1)).rejects.toMatchObject({ code: "ENOENT" });
    expect(queries).toEqual([]);
    expect(denials).toEqual(["evil.com: not allowed"]);
  });

  it("an allowed name is looked up once, normalized, and its addresses pinned to it", async () => {
    const { r, queries } = setup(allow("example.com"), { "example.com": [v4("93.184.216.34"), { address: "2606:2800::1", family: 6 }] });
    expect(await r.resolve("EXAMPLE.com.", 0, 1)).toEqual([v4("93.184.216.34"), { address: "2606:2800::1", family: 6 }]);
    expect(await r.resolve("example.com", 6, 1)).toEqual([{ address: "2606:2800::1", family: 6 }]);
    expect(queries).toEqual(["example.com", "example.com"]);
    expect(r.namesOf("93.184.216.34")).toEqual(["example.com"]);
    expect(r.namesOf("8.8.8.8")).toEqual([]);
  });

  it("rebinding: special answers are dropped (mixed answers keep the rest); none left is ENOENT", async () => {
    const { r, denials } = setup(allow("rebind.example", "mixed.example"), {
      "rebind.example": [v4("127.0.0.1"), v4("169.254.169.254")],
      "mixed.example": [v4("10.0.0.1"), v4("93.184.216.34"), { address: "::ffff:127.0.0.1", family: 6 }],
    });
    await expect(r.resolve("rebind.example", 0, 1)).rejects.toMatchObject({ code: "ENOENT" });
    expect(denials).toEqual(["rebind.example: resolves only to special addresses"]);
    expect(await r.resolve("mixed.example", 0, 1)).toEqual([v4("93.184.216.34")]);
    expect(r.namesOf("10.0.0.1")).toEqual([]);
    expect(r.namesOf("127.0.0.1")).toEqual([]);
  });

  it("a special answer stays when an IP or CIDR entry covers it", async () => {
    const { r } = setup(allow("db.example", "10.0.0.0/8:5432"), { "db.example": [v4("10.1.2.3")] });
    expect(await r.resolve("db.example", 0, 1)).toEqual([v4("10.1.2.3")]);
  });

  it("/etc/hosts answers first, with no query and no pin", async () => {
    const { r, queries } = setup(NetworkPolicy.none, {});
    expect(await r.resolve("localhost", 4, 1)).toEqual([v4("127.0.0.1")]);
    expect(await r.resolve("host.agentos.internal", 0, 1)).toEqual([v4("198.18.0.1")]);
    expect(await r.resolve("DB.local", 0, 1)).toEqual([v4("10.0.0.5")]);
    expect(r.namesOf("10.0.0.5")).toEqual([]);
    expect(queries).toEqual([]);
  });

  it("literals answer themselves; bad names and lookup failures", async () => {
    const { r } = setup(allow("flaky.example", "nx.example"), {});
    expect(await r.resolve("93.184.216.34", 0, 1)).toEqual([v4("93.184.216.34")]);
    expect(await r.resolve("93.184.216.34", 6, 1)).toEqual([]);
    await expect(r.resolve("a b", 0, 1)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(r.resolve("nx.example", 0, 1)).rejects.toMatchObject({ code: "ENOENT" });
    const flaky = new Resolver(() => "", () => allow("flaky.example"), async () => Promise.reject(Object.assign(new Error("t"), { code: "ESERVFAIL" })), () => {});
    await expect(flaky.resolve("flaky.example", 0, 1)).rejects.toMatchObject({ code: "ETIMEDOUT" });
  });
});
