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

  /** `p` and every descendant, children first. */
  tree(p: Process): Process[] {
    const out: Process[] = [];
    const walk = (q: Process): void => {
      for (const c of q.children) walk(c);
      out.push(q);
    };
    walk(p);
    return out;
  }

  all(): Process[] {
    return [...this.byPid.values()];
  }
}
