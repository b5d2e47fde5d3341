import { connect as netConnect } from "node:net";
import type { Duplex } from "node:stream";
import { HOST_GATEWAY_ADDRESS } from "./address-class.js";
import { NetworkPolicy, type DenialReason, type NetworkAllow } from "./policy.js";
import { hostLookup, Resolver, type LookupFunction } from "./resolver.js";

/**
 * How the kernel opens a host connection: net.connect by default; tests map addresses to local servers. The
 * stream emits 'connect' once connected (as a net.Socket does), 'error' if it cannot.
 */
export type DialFunction = (address: string, port: number) => Duplex;

/** `AgentOs.create({ network })`. Without it the VM has no network beyond its own loopback, and no DNS. */
export interface NetworkOptions {
  /** What guests may reach (see NetworkPolicy, and the README's "Outbound network"). */
  allow: NetworkAllow;
  /**
   * More certificate authorities the VM's programs trust, as PEM text (or a list of them), besides Node's root
   * certificates: appended to /etc/ssl/certs/ca-certificates.crt and given to guest `node` (NODE_EXTRA_CA_CERTS).
   */
  ca?: string | readonly string[];
  /** Test only: looks names up instead of the host's dns.lookup. */
  _lookup?: LookupFunction;
  /** Test only: opens connections instead of net.connect. */
  _dial?: DialFunction;
}

/** A name or connection the policy refused, as `vm.onNetworkDenied` listeners get it. */
export interface NetworkDenial {
  kind: "resolve" | "connect" | "send";
  /** The name looked up (resolve), or the names the address was resolved from (connect), joined by ", ". */
  host?: string;
  address?: string;
  port?: number;
  reason: DenialReason;
  /** The guest process. */
  pid: number;
}

/** Counters of a VM's outbound network (`vm.stats().network`). */
export interface NetworkStats {
  /** Outbound connections open now. */
  connections: number;
  /** Outbound connections made since the VM started. */
  connectionsTotal: number;
  /** Bytes the guests sent out and received. */
  bytesSent: number;
  bytesReceived: number;
  /** Names and connections refused. */
  denials: number;
}

const defaultDial: DialFunction = (address, port) => netConnect({ host: address, port, allowHalfOpen: true, noDelay: true });

/**
 * One VM's way out: its policy (replaceable while the VM runs: open connections stay, as on a firewall
 * change), its resolver and pin table, how it dials the host, its counters and who hears of denials.
 */
export class VmNetwork {
  policy: NetworkPolicy;
  readonly enabled: boolean;
  readonly resolver: Resolver;
  readonly stats: NetworkStats = { connections: 0, connectionsTotal: 0, bytesSent: 0, bytesReceived: 0, denials: 0 };
  private readonly listeners = new Set<(d: NetworkDenial) => void>();
  private readonly dialer: DialFunction;

  constructor(options: NetworkOptions | undefined, hostsFile: () => string) {
    for (const name of ["_lookup", "_dial"] as const)
      if (options?.[name] !== undefined && typeof options[name] !== "function") throw new TypeError(`network.${name} must be a function`);
    this.enabled = options !== undefined;
    this.policy = options ? new NetworkPolicy(options.allow) : NetworkPolicy.none;
    this.dialer = options?._dial ?? defaultDial;
    this.resolver = new Resolver(hostsFile, () => this.policy, options?._lookup ?? hostLookup, (host, reason, pid) =>
      this.deny({ kind: "resolve", host, reason, pid }),
    );
  }

  /** Replaces the policy (TypeError for a bad one, the old one then stays). */
  setAllow(allow: NetworkAllow): void {
    if (!this.enabled) throw new TypeError("the VM was created without a network option: its network stays off");
    this.policy = new NetworkPolicy(allow);
  }

  /** The VM's outbound connections have carried limits.maxNetworkBytes. */
  bytesUsedUp(limits: { maxNetworkBytes: number }): boolean {
    return this.stats.bytesSent + this.stats.bytesReceived >= limits.maxNetworkBytes;
  }

  /** Why a connection cannot even be asked about, or undefined. */
  offReason(): DenialReason | undefined {
    return this.enabled ? undefined : "network disabled";
  }

  deny(d: NetworkDenial): void {
    if (!this.enabled && d.reason !== "network disabled") d = { ...d, reason: "network disabled" };
    this.stats.denials++;
    for (const l of [...this.listeners]) {
      try {
        l(d);
      } catch {
        // A listener's failure is its own: the guest still gets its refusal.
      }
    }
  }

  onDenied(listener: (d: NetworkDenial) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A host connection to `address` (the gateway address dials the host's own 127.0.0.1). */
  dial(address: string, port: number): Duplex {
    return this.dialer(address === HOST_GATEWAY_ADDRESS ? "127.0.0.1" : address, port);
  }
}
