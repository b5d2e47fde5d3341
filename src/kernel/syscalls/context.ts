import type { Channel } from "../../abi/channel.js";
import type { Kernel } from "../kernel.js";
import type { Process } from "../process.js";

/**
 * A system-call handler: reads its arguments from the channel, writes OUT slots and the reply payload,
 * and returns the reply length — or a promise of it when the call parks. Failures throw KernelError.
 */
export type SyscallHandler = (k: Kernel, p: Process, ch: Channel) => number | Promise<number>;

const decoder = new TextDecoder();

/** The request payload as a string (paths). */
export function payloadString(ch: Channel): string {
  return decoder.decode(ch.data.subarray(0, ch.requestLength));
}
