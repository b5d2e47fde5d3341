/**
 * `pnpm spec:shell [FILTER]`: runs the vendored Oils spec cases (test/oils-spec-harness.ts) in the VM and
 * prints, per file, how many cases there are, how many bash's reference skips (and why), and how many give
 * bash's answer. With FILTER (a substring of a case's key, e.g. `builtin-read` or `read -n`), only those
 * cases run, and every one that differs is shown with both answers.
 */
import { allCases, type Outcome, readReference, sameAsBash, SpecVms } from "../test/oils-spec-harness.js";

const filter = process.argv[2];
const reference = readReference();
const cases = allCases().filter((c) => !filter || c.key.includes(filter));
const started = Date.now();
const vms = await SpecVms.create();
let outcomes: Map<string, Outcome>;
try {
  outcomes = await vms.runAll(cases.filter((c) => reference.cases[c.key] && !("skip" in reference.cases[c.key]!)));
} finally {
  await vms.dispose();
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);

const rows = new Map<string, { cases: number; skipped: number; equal: number }>();
const reasons = new Map<string, number>();
const differing: string[] = [];
for (const c of cases) {
  const row = rows.get(c.file) ?? { cases: 0, skipped: 0, equal: 0 };
  rows.set(c.file, row);
  row.cases++;
  const ref = reference.cases[c.key];
  if (!ref) throw new Error(`${c.key}: no reference answer; run scripts/oils-spec-reference.ts`);
  if ("skip" in ref) {
    row.skipped++;
    reasons.set(ref.skip, (reasons.get(ref.skip) ?? 0) + 1);
    continue;
  }
  const o = outcomes.get(c.key)!;
  if (sameAsBash(ref, o)) row.equal++;
  else differing.push(`--- ${c.key}\n${c.code}bash: ${JSON.stringify(ref.stdout)} status ${ref.status}\nvm:   ${JSON.stringify(o.stdout)} status ${o.status}`);
}

if (filter) console.log(differing.join("\n"));
const pct = (n: number, d: number): string => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)} %`);
console.log(`| file | cases | skipped | equal to bash | |\n|---|---:|---:|---:|---:|`);
let total = { cases: 0, skipped: 0, equal: 0 };
for (const [file, r] of rows) {
  console.log(`| ${file} | ${r.cases} | ${r.skipped} | ${r.equal} | ${pct(r.equal, r.cases - r.skipped)} |`);
  total = { cases: total.cases + r.cases, skipped: total.skipped + r.skipped, equal: total.equal + r.equal };
}
console.log(`| all | ${total.cases} | ${total.skipped} | ${total.equal} | ${pct(total.equal, total.cases - total.skipped)} |`);
for (const [reason, n] of reasons) console.log(`skipped: ${n} × ${reason}`);
console.log(`${cases.length} cases in ${seconds} s`);
