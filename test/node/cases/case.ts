/** One script of test/node/node.differential.test.ts, run by the guest `node` and by the host's `node`. */
export interface Case {
  /** Unique; also the directory name. */
  name: string;
  /** Shorthand for files["case.js"]. */
  code?: string;
  files?: Record<string, string>;
  /** Arguments to node; default ["case.js"]. */
  args?: string[];
  stdin?: string;
  env?: Record<string, string>;
  /** Compare stderr without removing the source-context header of uncaught errors. */
  keepHeader?: boolean;
}
