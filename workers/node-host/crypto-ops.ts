import * as crypto from "node:crypto";
import { answer, type Bulk, decodeOptions, HandleTable, relaying, unpack } from "./host-assist.js";
import type { HostOp, HostState } from "./host-ops.js";

/**
 * Host operations behind the guest's `crypto` ciphers and key derivations (workers/node-guest/builtins/crypto.js),
 * computed by the worker's own node:crypto, with the conventions of host-assist.ts.
 */

type AnyCipher = crypto.Cipher | crypto.Decipher;

export function cryptoOps(state: HostState, bulk: Bulk): Record<string, HostOp> {
  const ciphers = new HandleTable<{ c: AnyCipher; decipher: boolean }>("cipher");
  const create = (decipher: boolean) =>
    relaying((layout: unknown, algorithm: unknown, key: unknown, iv: unknown, options: unknown) => {
      const [alg, k, v] = unpack(state, bulk, layout, [algorithm, key, iv]);
      const opts = decodeOptions(options) as crypto.CipherGCMOptions | undefined;
      const make = (decipher ? crypto.createDecipheriv : crypto.createCipheriv) as (a: unknown, k: unknown, v: unknown, o?: unknown) => AnyCipher;
      return ciphers.add(() => ({ c: make(alg, k, v, opts), decipher }));
    });
  return {
    pbkdf2: relaying((layout: unknown, password: unknown, salt: unknown, iterations: unknown, keylen: unknown, digest: unknown) => {
      const a = unpack(state, bulk, layout, [password, salt, iterations, keylen, digest]);
      return answer(state, bulk, (crypto.pbkdf2Sync as (...x: unknown[]) => Buffer)(...a));
    }),
    scrypt: relaying((layout: unknown, password: unknown, salt: unknown, keylen: unknown, options: unknown) => {
      const [p, s, k] = unpack(state, bulk, layout, [password, salt, keylen]);
      const o = decodeOptions(options);
      return answer(state, bulk, (crypto.scryptSync as (...x: unknown[]) => Buffer)(p, s, k, ...(o === undefined ? [] : [o])));
    }),
    hkdf: relaying((layout: unknown, digest: unknown, ikm: unknown, salt: unknown, info: unknown, keylen: unknown) => {
      const a = unpack(state, bulk, layout, [digest, ikm, salt, info, keylen]);
      return answer(state, bulk, Buffer.from((crypto.hkdfSync as (...x: unknown[]) => ArrayBuffer)(...a)));
    }),
    cipherList: () => crypto.getCiphers().join(","),
    cipherNew: create(false),
    decipherNew: create(true),
    /** update(data, inputEncoding): answers the output's length. */
    cipherUpdate: relaying((id: unknown, layout: unknown, data: unknown, encoding: unknown) => {
      const { c } = ciphers.get(id);
      const [d, enc] = unpack(state, bulk, layout, [data, encoding]);
      return answer(state, bulk, (c.update as (d: unknown, e?: unknown) => Buffer)(d, enc));
    }),
    /**
     * final(), then the handle is released whatever happened. Answers out * 65536 + tag: the output followed by
     * the authentication tag of an AEAD cipher (the guest keeps it for getAuthTag).
     */
    cipherFinal: relaying((id: unknown) => {
      const { c, decipher } = ciphers.get(id);
      ciphers.delete(id);
      const out = c.final();
      let tag = Buffer.alloc(0);
      if (!decipher) {
        try {
          tag = (c as crypto.CipherGCM).getAuthTag();
        } catch {
          // not an AEAD mode
        }
      }
      answer(state, bulk, Buffer.concat([out, tag]));
      return out.length * 65536 + tag.length;
    }),
    cipherSetAAD: relaying((id: unknown, layout: unknown, aad: unknown, plaintextLength: unknown) => {
      const { c } = ciphers.get(id);
      const [a, n] = unpack(state, bulk, layout, [aad, plaintextLength]);
      (c as crypto.CipherGCM).setAAD(a as Buffer, n === undefined ? undefined : ({ plaintextLength: n } as { plaintextLength: number }));
    }),
    cipherSetAuthTag: relaying((id: unknown, layout: unknown, tag: unknown) => {
      const { c } = ciphers.get(id);
      const [t] = unpack(state, bulk, layout, [tag]);
      (c as crypto.DecipherGCM).setAuthTag(t as Buffer);
    }),
    cipherSetAutoPadding: relaying((id: unknown, on: unknown) => {
      ciphers.get(id).c.setAutoPadding(on as boolean);
    }),
    cipherFree: (id) => void ciphers.delete(id),
    cipherCount: () => ciphers.size,
  };
}
