// MessagePorts carried across a Worker's channel (internal/worker-channel.js), one relay per channel end. A
// port in a message's transfer list stays in its thread as a hidden port entangled with its peer (the sender's
// port is left detached, as a transferred port is); the other thread gets a new port whose peer is a hidden
// port there; each hidden port passes what reaches it on over the channel at once (so that nothing posted is
// lost when its thread ends), as bytes (V8's wire format), under an id the sending side gave the port.
// Closing either end closes the other; the channel's end closes them all. The hidden ports are never
// started, so they do not keep their thread alive: the ports the program holds do, as Node's.
'use strict';

const {
  Uint8Array,
  SafeArrayIterator,
  SafeMap,
  ArrayPrototypePush,
  TypedArrayPrototypeSet,
  TypedArrayPrototypeSubarray,
  GetLength,
} = require('internal/primordials');

const { MessageChannel, transferPort, idlePeer, sinkPort } = require('internal/message-port');

/** PORT_MESSAGE / PORT_CLOSE frames: the first byte says whose id it is. */
const SENDERS = 0;
const RECEIVERS = 1;

function u32(bytes, at) {
  return bytes[at] + bytes[at + 1] * 0x100 + bytes[at + 2] * 0x10000 + bytes[at + 3] * 0x1000000;
}

function putU32(bytes, at, n) {
  bytes[at] = n & 0xff;
  bytes[at + 1] = (n >>> 8) & 0xff;
  bytes[at + 2] = (n >>> 16) & 0xff;
  bytes[at + 3] = (n >>> 24) & 0xff;
}

/** `head` (whose, id) then `rest`. */
function portFrame(whose, id, rest) {
  const out = new Uint8Array(5 + GetLength(rest));
  out[0] = whose;
  putU32(out, 1, id);
  TypedArrayPrototypeSet(out, rest, 5);
  return out;
}

class PortRelay {
  /** (kind, bytes): sends a frame on the channel. */
  #send;
  /** The frame kinds of port messages and closes. */
  #kinds;
  /** (value, relay) → bytes, (bytes, relay) → { value, ports }: messages as the channel carries them (they may carry ports again). */
  #encode;
  #decode;
  /** Ports this side gave ids to (their hidden ports here), and those the other side did (the hidden ends here). */
  #mine = new SafeMap();
  #theirs = new SafeMap();
  #nextId = 1;

  /** Which thread the channel leads to, for the runtime's shared memory (0: the parent; else the Worker's pid). */
  link;

  /** Delivers the port frames that have come, at once (the channel's pull). */
  #pull;

  constructor(send, pull, link, kinds, encode, decode) {
    this.#send = send;
    this.#pull = pull;
    this.link = link;
    this.#kinds = kinds;
    this.#encode = (value) => encode(value, this);
    this.#decode = (bytes) => decode(bytes, this);
  }

  /** Takes `port` (a transferred port of this thread) to the other side: answers its id. */
  export(port) {
    const id = this.#nextId++;
    const hidden = transferPort(port);
    this.#mine.set(id, hidden);
    this.#relay(hidden, SENDERS, id);
    return id;
  }

  /** The port the program gets for the other side's port `id`. */
  import(id) {
    const { port1, port2 } = new MessageChannel();
    this.#theirs.set(id, port2);
    this.#relay(port2, RECEIVERS, id);
    return port1;
  }

  /** Passes what reaches `hidden` on to the other side at once, as `whose` port `id`. */
  #relay(hidden, whose, id) {
    sinkPort(hidden, (item) => {
      if (this.#find(whose, id) !== hidden) return;
      if (item.close) {
        this.#forget(whose, id);
        this.#send(this.#kinds.close, portFrame(whose, id, new Uint8Array(0)));
      } else this.#send(this.#kinds.message, portFrame(whose, id, this.#encode(item.data)));
    }, this.#pull);
  }

  /** The hidden port of `whose` port `id` (SENDERS: one this side gave the id). */
  #find(whose, id) {
    return whose === SENDERS ? this.#mine.get(id) : this.#theirs.get(id);
  }

  #forget(whose, id) {
    if (whose === SENDERS) this.#mine.delete(id);
    else this.#theirs.delete(id);
  }

  /** A port message or close from the other side. */
  receive(kind, bytes) {
    // The sender's SENDERS ids are among this side's imports, and the reverse.
    const whose = bytes[0] === SENDERS ? RECEIVERS : SENDERS;
    const id = u32(bytes, 1);
    const hidden = this.#find(whose, id);
    if (hidden === undefined) return;
    if (kind === this.#kinds.close) {
      this.#forget(whose, id);
      // The program's port delivers what came before, then closes; one that never started closes now, as a
      // port whose end in another thread closed does, listened to or not.
      const idle = idlePeer(hidden);
      if (idle !== null) idle.close();
      else hidden.close();
      return;
    }
    const { value, ports } = this.#decode(TypedArrayPrototypeSubarray(bytes, 5, GetLength(bytes)));
    hidden.postMessage(value, ports);
  }

  /** The channel ended: every relayed port closes. */
  closeAll() {
    const all = [];
    for (const hidden of this.#mine.values()) ArrayPrototypePush(all, hidden);
    for (const hidden of this.#theirs.values()) ArrayPrototypePush(all, hidden);
    this.#mine.clear();
    this.#theirs.clear();
    for (const hidden of new SafeArrayIterator(all)) hidden.close();
  }
}

module.exports = { PortRelay, u32, putU32 };
