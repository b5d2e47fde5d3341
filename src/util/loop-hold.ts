/**
 * Keeps the host's event loop alive while something of ours is running, and only then. Nothing else of the
 * runtime holds the loop (the pool's workers and ports are unref'd, the kernel waits with Atomics.waitAsync,
 * which never holds it), so a program that forgets `dispose()` exits once its VMs are idle, while a process
 * that runs is never cut short. One ref'd timer stands for every holder of the host process.
 */
let holders = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function holdLoop(): void {
  if (holders++ === 0) timer = setInterval(() => {}, 2 ** 30);
}

function releaseLoop(): void {
  if (--holders === 0) {
    clearInterval(timer);
    timer = undefined;
  }
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
