import { Duplex, type DuplexOptions } from "node:stream";
import type { HostSocket } from "./host-socket.js";

/**
 * A host end as a node:stream Duplex (vm.connect): reads are pulled only while the stream wants data, so
 * the guest's sends wait (back-pressure) when the host does not read; `end()` shuts down the host's
 * writing side, `destroy()` closes the end. `options` (vm.fetch: `allowHalfOpen: false`, as a net.Socket) are
 * passed to the Duplex.
 */
export function hostSocketDuplex(end: HostSocket, options: Pick<DuplexOptions, "allowHalfOpen"> = {}): Duplex {
  let reading = false;
  return new Duplex({
    ...options,
    read() {
      if (reading) return;
      reading = true;
      end.read().then(
        (chunk) => {
          reading = false;
          this.push(chunk === null ? null : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        },
        (e: unknown) => this.destroy(e as Error),
      );
    },
    write(chunk: Buffer, _encoding, done) {
      end.write(chunk).then(() => done(), done);
    },
    final(done) {
      end.end();
      done();
    },
    destroy(e, done) {
      end.close();
      done(e);
    },
  });
}
