import type { Process } from "./process.js";

/** The VM's processes by pid. A process stays here until its status is collected (or nobody can). */
export class ProcessTable {
  private readonly byPid = new Map<number, Process>();
  private nextPid = 1;

  allocatePid(): number {
    return this.nextPid++;
  }

  add(p: Process): void {
    this.byPid.set(p.pid, p);
  }

  get(pid: number): Process | undefined {
    return this.byPid.get(pid);
  }

  remove(p: Process): void {
    this.byPid.delete(p.pid);
  }

  all(): Process[] {
    return [...this.byPid.values()];
  }
}
