/**
 * Cases of test/tools-cases.ts whose VM result differs from GNU on the host today: the exact command
 * line → why (VM vs GNU). The suite fails for a listed case that has come to equal the host, so the list
 * stays true. See each difference with `npx tsx scratch/tools-report.mts [filter]`.
 */
export const KNOWN_DIFFERENCES: Record<string, string> = {
  "ls -la": "ls -l: the VM's one user owns every file (host: root), and its directories have size 0 and one link (host tmpfs: sizes of 40 + 20 per entry, 2 + subdirectories links)",
  "ls -l src": "ls -l: the VM's one user owns every file (host: root), and its directories have size 0 and one link",
  "ls -lago src/lib": "ls -l: directories have size 0 and one link (host tmpfs: sizes and link counts of their own)",
  "ls -ldgo src docs": "ls -l: directories have size 0 and 1 link (host: 3 links, tmpfs sizes)",
  "stat -c '%n %s %F' src empty.txt link-to-index.ts": "stat %s: a directory's size is 0 (host tmpfs: 160)",
  "du -sb data": "du: a directory has no size of its own in the VM (stat and ls -l say 0); the host's file system gives each one an apparent size",
  "du -ab v1": "du: a directory has no size of its own in the VM (stat and ls -l say 0); the host's file system gives each one an apparent size",
  "touch -d '2024-01-15 10:30:00.123456789' package.json && stat -c '%.9Y' package.json": "stat %.9Y: the VM keeps the nanoseconds (ls --full-time shows .123456789), but the stat binary (uutils) formats them through a float: .123456055",
  "rg TODO nope": "rg: the errno in '(os error N)' is WASI's (44, from Rust's std), not Linux's (2)",
};
