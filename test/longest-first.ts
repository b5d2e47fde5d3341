import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order of a run's test files, for vitest's `sequence.sequencer`: the longest first, whatever their project.
 * vitest's own order is project by project (the longest first within each), so that a run of several projects
 * sharing the cores (.ci/run's) ended with the last project's long files running alone on a core while the other
 * one idled. As vitest's: a file that failed last time first, then by the last run's duration, a file never run
 * before ahead of those, and among those by size.
 */
export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (f: TestSpecification): string => `${f.project.name}:${relative(config.root, f.moduleId)}`;
    return Promise.resolve(
      [...files].sort((a, b) => {
        const ra = cache.getFileTestResults(key(a));
        const rb = cache.getFileTestResults(key(b));
        if (!ra || !rb) {
          const sa = cache.getFileStats(key(a));
          const sb = cache.getFileStats(key(b));
          if (!sa || !sb) return !sa && sb ? -1 : !sb && sa ? 1 : 0;
          return sb.size - sa.size;
        }
        if (ra.failed !== rb.failed) return ra.failed ? -1 : 1;
        return rb.duration - ra.duration;
      }),
    );
  }
}
