import * as http from "node:http";
import * as http2 from "node:http2";
import * as tls from "node:tls";
import { builtinModules, isBuiltin } from "node:module";
import type { HostOp } from "./host-ops.js";
import { internalBinding } from "./node-internals.js";

/**
 * Tables of this Node's own, as JSON of primitives, for the guest's builtins to export as Node does: the guest
 * reports this Node's version, so its http.METHODS, http.STATUS_CODES, http2.constants and tls defaults are this
 * Node's too (Node 20.20 has QUERY, earlier 20s do not). Each is computed once; none carries a capability.
 */
const TABLES: Record<string, () => unknown> = {
  /** This Node's version: the one the guest reports (known here before the process starts). */
  version: () => process.versions.node,
  /** Node's builtinModules, and the builtins this Node knows only with the `node:` scheme. */
  builtins: () => ({ list: builtinModules.filter((n) => !n.startsWith("internal/")), schemeOnly: ["test", "test/reporters", "sea", "sqlite"].filter((n) => isBuiltin(`node:${n}`) && !isBuiltin(n)) }),
  httpMethods: () => http.METHODS,
  httpStatusCodes: () => http.STATUS_CODES,
  http2Constants: () => http2.constants,
  http2DefaultSettings: () => http2.getDefaultSettings(),
  /**
   * This Node's command-line options (its own table, lib/internal/options): name → [type, allowed in
   * NODE_OPTIONS], the aliases, and the V8 options NODE_OPTIONS may carry.
   */
  cliOptions: () => {
    const { getCLIOptionsInfo } = internalBinding<{ getCLIOptionsInfo: () => { options: Map<string, { type: number; envVarSettings: number }>; aliases: Map<string, string[]> } }>("options");
    const info = getCLIOptionsInfo();
    const options: Record<string, [number, boolean]> = {};
    for (const [name, o] of info.options) options[name] = [o.type, o.envVarSettings === 0];
    return { options, aliases: Object.fromEntries(info.aliases), allowedInEnv: [...process.allowedNodeEnvironmentFlags] };
  },
  tlsDefaults: () => ({
    CLIENT_RENEG_LIMIT: tls.CLIENT_RENEG_LIMIT,
    CLIENT_RENEG_WINDOW: tls.CLIENT_RENEG_WINDOW,
    DEFAULT_CIPHERS: tls.DEFAULT_CIPHERS,
    DEFAULT_ECDH_CURVE: tls.DEFAULT_ECDH_CURVE,
    DEFAULT_MAX_VERSION: tls.DEFAULT_MAX_VERSION,
    DEFAULT_MIN_VERSION: tls.DEFAULT_MIN_VERSION,
    ciphers: tls.getCiphers(),
    rootCertificates: tls.rootCertificates,
  }),
};
const cache = new Map<string, string>();

export function nodeTablesOps(): Record<string, HostOp> {
  return {
    /** One of TABLES by name, as JSON; "" for a name that is not one. */
    nodeTable: (name) => {
      if (typeof name !== "string" || !Object.hasOwn(TABLES, name)) return "";
      let json = cache.get(name);
      if (json === undefined) cache.set(name, (json = JSON.stringify(TABLES[name]!())));
      return json;
    },
  };
}
