import type { Channel } from "../../abi/channel.js";
import { errnoName } from "../../abi/errno.js";
import { Sys } from "../../abi/syscalls.js";
import type { Process } from "../process.js";

/** Set AGENTOS_TRACE=1 to print every system call with its result to the host's stderr. */
export const tracing = process.env.AGENTOS_TRACE === "1";

const names = new Map<number, string>(Object.entries(Sys).map(([k, v]) => [v, k]));
const decoder = new TextDecoder();

let last = performance.now();

/** Each line starts with the time since the previous line, in microseconds. */
export function traceSyscall(p: Process, ch: Channel, ret: number, replyLength: number): void {
  const now = performance.now();
  const delta = `+${Math.round((now - last) * 1000)}µs`.padStart(9);
  last = now;
  const args = [0, 1, 2, 3].map((i) => ch.arg(i)).join(",");
  const payload = JSON.stringify(decoder.decode(ch.data.subarray(0, Math.min(ch.requestLength, 80))));
  const outs = [0, 1].map((i) => ch.out(i)).join(",");
  process.stderr.write(
    `${delta} [${p.pid} ${p.command}] ${names.get(ch.op) ?? ch.op}(${args}) ${payload} -> ${ret === 0 ? "ok" : errnoName(ret)} out=${outs} rlen=${replyLength}\n`,
  );
}
