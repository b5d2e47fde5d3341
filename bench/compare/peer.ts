/**
 * What the peer comparison needs of a system under test. Each peer (ours, the host, just-bash, upstream
 * agent-os) implements it in bench/compare/peers/<name>.ts and runs in a Node process of its own.
 */
export type PeerName = "ours" | "host" | "just-bash" | "agent-os";

export interface ExecOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface PeerInstance {
  /** Runs `command` with a bash-like shell, its working directory being the peer's `root`. */
  exec(command: string): Promise<ExecOutcome>;
  /** Paths are absolute paths inside the instance. Parents are created as needed. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readFile(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ size: number }>;
  readdir(path: string): Promise<string[]>;
  dispose(): Promise<void>;
}

export interface CreateOptions {
  /** A host directory to make visible, read-only, at `${root}/mnt` (the filesystem-heavy rows). */
  mountHostDir?: string;
}

export interface Peer {
  readonly name: PeerName;
  /** Absolute directory inside an instance where fixtures are written and commands run. */
  readonly root: string;
  create(options?: CreateOptions): Promise<PeerInstance>;
}
