import { MessageChannel } from "node:worker_threads";

/**
 * Keeps the host's event loop alive while something of ours is running, and only then. Nothing else of the
 * runtime holds the loop (the pool's workers and ports are unref'd, the kernel waits with Atomics.waitAsync,
 * which never holds it), so a program that forgets `dispose()` exits once its VMs are idle, while a process
 * that runs is never cut short. One message port, ref'd while anything holds it, stands for every holder of
 * the host process: it keeps the loop alive without a timer.
 */
let holders = 0;
const { port1: holder } = new MessageChannel();
holder.unref();

function holdLoop(): void {
  if (holders++ === 0) holder.ref();
}

function releaseLoop(): void {
  if (--holders === 0) holder.unref();
}

/** A holder that can be switched on and off any number of times and counts once while on. */
export class LoopHold {
  private on = false;

  set(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    if (on) holdLoop();
    else releaseLoop();
  }
}
