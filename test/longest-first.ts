import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * What each file took in a full `.ci/run` on a 2-core machine, in seconds (`node scripts/test-durations.mjs`
 * writes it from vitest's cache after a run): a fresh clone has no cache, and ordering its files by size put
 * the slowest ones (real-projects' installs, the native builds of the curl and wget references) last, where
 * they ran alone while the other core idled.
 */
const MEASURED: Record<string, number> = JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8"));

/**
 * The order of a run's test files, for vitest's `sequence.sequencer`: the longest first, whatever their project.
 * vitest's own order is project by project (the longest first within each), so that a run of several projects
 * sharing the cores (.ci/run's) ended with the last project's long files running alone on a core while the other
 * one idled. As vitest's: a file that failed last time first, then by the last run's duration (or, never run
 * here, the duration measured in test/durations.json), a file never measured ahead of those, and among those by
 * size.
 */
export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (f: TestSpecification): string => `${f.project.name}:${relative(config.root, f.moduleId)}`;
    const duration = (f: TestSpecification): number | undefined => {
      const last = cache.getFileTestResults(key(f))?.duration;
      return last ?? (MEASURED[key(f)] === undefined ? undefined : MEASURED[key(f)]! * 1000);
    };
    const failed = (f: TestSpecification): boolean => cache.getFileTestResults(key(f))?.failed ?? false;
    return Promise.resolve(
      [...files].sort((a, b) => {
        if (failed(a) !== failed(b)) return failed(a) ? -1 : 1;
        const da = duration(a);
        const db = duration(b);
        if (da === undefined || db === undefined) {
          if (da !== undefined || db !== undefined) return da === undefined ? -1 : 1;
          const sa = cache.getFileStats(key(a));
          const sb = cache.getFileStats(key(b));
          if (!sa || !sb) return !sa && sb ? -1 : !sb && sa ? 1 : 0;
          return sb.size - sa.size;
        }
        return db - da;
      }),
    );
  }
}
