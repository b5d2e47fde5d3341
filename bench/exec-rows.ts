/** The exec rows of `pnpm bench`: the command, and its output on our VM and on the host. */
export interface ExecCase {
  command: string;
  /** Exact stdout on our VM. */
  ours: string;
  /** Exact stdout on the host (its cwd is a temp dir with the same `empty` directory), or a check. */
  host: string | ((stdout: string) => boolean);
}

export const execCases = (hostDir: string): ExecCase[] => [
  { command: "true", ours: "", host: "" },
  { command: "echo hello", ours: "hello\n", host: "hello\n" },
  { command: "pwd", ours: "/home/user\n", host: `${hostDir}\n` },
  { command: "ls /tmp/empty", ours: "", host: "" },
  { command: "date --version", ours: "date (uutils coreutils) 0.12.0\n", host: (s) => s.startsWith("date (GNU coreutils)") },
  { command: "printf '%65536s' x | wc -c", ours: "65536\n", host: "65536\n" },
];

/** The agent session of the public bug report: 15 commands in a row. */
export const BATCH = Array.from({ length: 15 }, (_, i) => `echo iteration_${i + 1}`);
