import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's git (guests/dist/git.wasm, git 2.47.3) against the host's git: each case is a sequence of command
 * lines run one by one in a directory of the same absolute path in the VM and on the host (so paths in messages
 * agree), with the same fixed author, committer, dates and an empty HOME; every line's stdout, stderr and exit
 * status must be identical. Commit ids then agree too. Where the host's git (2.39 on the machine this was
 * written on) prints otherwise than 2.47 does, the case records the exact 2.47 text for the VM and says why.
 * Each case has a directory of its own, so cases run side by side.
 */

const host = spawnSync("git", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.trim() : "";

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Case {
  steps: string[];
  /** Step index → what git 2.47 prints there when the host's older git prints otherwise ($DIR: the case's directory). */
  v247?: Record<number, Partial<Outcome>>;
}

/** A fixed identity and clock: ids equal the host's. Later commits get later dates by GIT_*_DATE in the step. */
const ENV = {
  GIT_AUTHOR_NAME: "A U Thor",
  GIT_AUTHOR_EMAIL: "author@example.com",
  GIT_AUTHOR_DATE: "1700000000 +0000",
  GIT_COMMITTER_NAME: "C O Mitter",
  GIT_COMMITTER_EMAIL: "committer@example.com",
  GIT_COMMITTER_DATE: "1700000000 +0000",
  GIT_EDITOR: "true",
  LANG: "C.UTF-8",
};

/** A tree of a few files committed on `main`, the start of most cases. */
const REPO = [
  "git init -q -b main",
  "printf 'one\\ntwo\\nthree\\n' > a.txt && mkdir -p src && printf 'int main(void) { return 0; }\\n' > src/main.c && echo hello > README",
  "git add . && git commit -q -m 'first commit'",
];
/** A second commit, one second later. */
const at = (s: number): string => `GIT_AUTHOR_DATE='${1700000000 + s} +0000' GIT_COMMITTER_DATE='${1700000000 + s} +0000'`;

const CASES: Record<string, Case> = {
  "init, add, status, commit": {
    steps: [
      "git init",
      "git status",
      "printf 'one\\ntwo\\n' > a.txt && echo b > b.txt && mkdir d && echo c > d/c.txt",
      "git status",
      "git status -s",
      "git status --porcelain",
      "git status --porcelain=v2",
      "git add a.txt d",
      "git status",
      "git status -s",
      "git status --short --branch",
      "git commit -m 'first commit'",
      "git status",
      "git add -A && git status --porcelain",
      `${at(60)} git commit -q -m 'second' && git log --oneline`,
      "git rev-parse HEAD",
      "git rev-parse --abbrev-ref HEAD",
      "git ls-files",
      "git ls-files -s",
      "git cat-file -p HEAD",
      "git cat-file -t HEAD",
      "git status --ignored",
      "echo '*.log' > .gitignore && touch x.log && git status -s --ignored",
      "git check-ignore -v x.log",
      "git init -q t && ls t/.git/hooks && cat t/.git/info/exclude t/.git/description && ls -d t/.git/branches",
    ],
    v247: {
      // git 2.42 stopped ending an empty "hint:" line with a space (advice.c, "advice: strip trailing whitespace").
      0: {
        stderr: [
          "hint: Using 'master' as the name for the initial branch. This default branch name",
          "hint: is subject to change. To configure the initial branch name to use in all",
          "hint: of your new repositories, which will suppress this warning, call:",
          "hint:",
          "hint: \tgit config --global init.defaultBranch <name>",
          "hint:",
          "hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and",
          "hint: 'development'. The just-created branch can be renamed via this command:",
          "hint:",
          "hint: \tgit branch -m <name>",
          "",
        ].join("\n"),
      },
      // git 2.47's templates: 2.44 stopped making .git/branches; Debian's 2.39 has no sendemail-validate sample.
      24: {
        stdout: "applypatch-msg.sample\ncommit-msg.sample\nfsmonitor-watchman.sample\npost-update.sample\npre-applypatch.sample\npre-commit.sample\npre-merge-commit.sample\npre-push.sample\npre-rebase.sample\npre-receive.sample\nprepare-commit-msg.sample\npush-to-checkout.sample\nsendemail-validate.sample\nupdate.sample\n# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with \'#\' are comments.\n# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\nUnnamed repository; edit this file \'description\' to name the repository.\n",
        stderr: "ls: cannot access 't/.git/branches': No such file or directory\n",
        exitCode: 2,
      },
    },
  },
  "config": {
    steps: [
      "git init -q",
      "git config user.name 'Repo User' && git config user.name",
      "git config --global core.editor true && git config --global --list",
      "git config --list --show-origin | grep -v '^command'",
      "git config --get no.such; echo $?",
      "git config --bool core.bare",
      "git config alias.st status && git st -s",
      "git config --unset user.name && git config --local --list",
      "git nosuchcommand",
      "git --version",
    ],
    // The version is the VM's own.
    v247: { 9: { stdout: "git version 2.47.3\n" } },
  },
  "log variants": {
    steps: [
      ...REPO,
      `echo four >> a.txt && ${at(100)} git commit -q -am 'second: add four'`,
      `git mv README README.md && ${at(200)} git commit -q -m 'rename README'`,
      `printf 'int f(void);\\n' > src/f.h && git add src && ${at(300)} git commit -q -m 'header' -m 'A body line.'`,
      "git log",
      "git log --oneline",
      "git log --oneline -n 2",
      "git log -2 --stat",
      "git log -p -1",
      "git log --format='%H %an <%ae> %ad %s' --date=iso",
      "git log --format=%B -1",
      "git log --pretty=fuller -1",
      "git log --graph --oneline",
      "git log --name-status --oneline",
      "git log --oneline -- src",
      "git log --oneline HEAD~2..HEAD",
      "git log --reverse --format=%s",
      "git log --shortstat --oneline",
      "git log --follow --oneline -- README.md",
      "git show",
      "git show --stat HEAD~1",
      "git show HEAD~2:a.txt",
      "git show --name-only --format=%h HEAD",
      "git shortlog -s",
      "git rev-list --count HEAD",
      "git log --oneline --no-such-option",
    ],
  },
  "diff variants": {
    steps: [
      ...REPO,
      "printf 'one\\nTWO\\nthree\\nfour\\n' > a.txt && echo new > new.txt && rm README",
      "git diff",
      "git diff --stat",
      "git diff --numstat",
      "git diff --name-only",
      "git diff --name-status",
      "git diff -U0",
      "git diff --word-diff",
      "git add -A && git diff",
      "git diff --cached",
      "git diff --cached --stat",
      "git diff --cached --name-status",
      "git diff HEAD --stat",
      `${at(100)} git commit -q -m two && git diff HEAD~1 HEAD`,
      "git diff HEAD~1 --stat -- a.txt",
      "printf 'x\\ny\\n' > l.txt; printf 'x\\nz\\n' > r.txt; git diff --no-index l.txt r.txt",
      "git diff --no-index --stat l.txt r.txt",
      "git diff --exit-code; echo $?",
      "git diff --quiet HEAD~1; echo $?",
      "git diff --check",
    ],
  },
  "branch, checkout, switch, merge": {
    steps: [
      ...REPO,
      "git branch",
      "git branch feature && git branch -v",
      "git checkout feature",
      `echo feat >> a.txt && ${at(100)} git commit -q -am 'feature work'`,
      "git switch main",
      "git merge feature",
      "git log --oneline --graph --all",
      "git checkout -b topic",
      `echo topic > topic.txt && git add topic.txt && ${at(200)} git commit -q -m 'topic file'`,
      "git switch -c other main",
      "git switch main",
      `echo main > main.txt && git add main.txt && ${at(300)} git commit -q -m 'main file'`,
      `${at(400)} git merge topic -m 'Merge branch topic'`,
      "git log --oneline --graph --all",
      "git branch -a",
      "git branch --merged",
      "git branch -d topic",
      "git branch -D other",
      "git branch -d no-such",
      "git checkout no-such-branch",
      "git switch -",
      "git rev-parse --short HEAD",
      "git checkout -q HEAD~1 && git status | head -1",
      "git switch -q main && git branch -m main trunk && git branch",
    ],
    v247: {
      // git 2.43 dropped the full stop of "branch '%s' not found." (builtin/branch.c).
      21: { stderr: "error: branch 'no-such' not found\n" },
    },
  },
  "merge conflict": {
    steps: [
      ...REPO,
      "git checkout -q -b side",
      `printf 'one\\nSIDE\\nthree\\n' > a.txt && ${at(100)} git commit -q -am 'side change'`,
      "git checkout -q main",
      `printf 'one\\nMAIN\\nthree\\n' > a.txt && ${at(200)} git commit -q -am 'main change'`,
      `${at(300)} git merge side`,
      "git status",
      "git status -s",
      "git status --porcelain=v2",
      "cat a.txt",
      "git diff",
      "git ls-files -u",
      "git merge --abort && git status -s && cat a.txt",
      `${at(300)} git merge side; printf 'one\\nBOTH\\nthree\\n' > a.txt && git add a.txt && ${at(400)} git commit -q --no-edit && git log --oneline --graph`,
      "git show --stat HEAD",
    ],
  },
  "rebase": {
    steps: [
      ...REPO,
      "git checkout -q -b feature",
      `echo f1 > f1.txt && git add f1.txt && ${at(100)} git commit -q -m 'f1'`,
      `echo f2 > f2.txt && git add f2.txt && ${at(200)} git commit -q -m 'f2'`,
      "git checkout -q main",
      `echo m1 > m1.txt && git add m1.txt && ${at(300)} git commit -q -m 'm1'`,
      "git checkout -q feature",
      `${at(400)} git rebase main`,
      "git log --oneline --graph --all",
      "git checkout -q -b clash main",
      `printf 'one\\nCLASH\\nthree\\n' > a.txt && ${at(500)} git commit -q -am clash`,
      "git checkout -q main",
      `printf 'one\\nMAIN\\nthree\\n' > a.txt && ${at(600)} git commit -q -am 'main edit'`,
      "git checkout -q clash",
      `${at(700)} git rebase main`,
      "git status",
      "git rebase --abort && git log --oneline",
    ],
    v247: {
      // git 2.41 clears the progress line only on a terminal (pager.c term_clear_line() checks isatty(2));
      // 2.39 wrote a line of spaces between "\r"s to stderr whatever it was.
      9: { stderr: "Rebasing (1/2)\rRebasing (2/2)\rSuccessfully rebased and updated refs/heads/feature.\n" },
      // git 2.45 added the advice.mergeConflict hint's last line.
      16: {
        stderr: [
          "Rebasing (1/1)\rerror: could not apply 53a5515... clash",
          "hint: Resolve all conflicts manually, mark them as resolved with",
          'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".',
          'hint: You can instead skip this commit: run "git rebase --skip".',
          'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
          'hint: Disable this message with "git config advice.mergeConflict false"',
          "Could not apply 53a5515... clash",
          "",
        ].join("\n"),
      },
    },
  },
  "cherry-pick and revert": {
    steps: [
      ...REPO,
      "git checkout -q -b pick",
      `echo picked > p.txt && git add p.txt && ${at(100)} git commit -q -m 'to pick'`,
      "git checkout -q main",
      `${at(200)} git cherry-pick pick`,
      "git log --oneline",
      `${at(300)} git revert HEAD`,
      "git log --oneline",
      "git show --stat HEAD",
      `${at(400)} git revert --no-edit HEAD~2`,
      "git status -s; ls",
      "git cherry-pick no-such-commit",
    ],
  },
  "stash": {
    steps: [
      ...REPO,
      "echo change >> a.txt && echo staged > s.txt && git add s.txt",
      `${at(100)} git stash`,
      "git status -s",
      "git stash list",
      "git stash show",
      "git stash show -p",
      "git stash pop",
      "git status -s",
      `${at(200)} git stash push -m 'named stash'`,
      "git stash list",
      "git stash apply",
      "git stash drop",
      "git stash list; git status -s",
      "git stash pop",
    ],
  },
  "tag": {
    steps: [
      ...REPO,
      "git tag v1.0",
      `${at(100)} git tag -a v1.1 -m 'release 1.1'`,
      "git tag",
      "git tag -l 'v1.*' -n",
      "git show v1.1",
      "git describe",
      `echo more >> a.txt && ${at(200)} git commit -q -am more && git describe --tags`,
      "git tag -d v1.0",
      "git tag v1.1",
      "git rev-parse v1.1^{commit}",
    ],
  },
  "reset, restore, rm, mv": {
    steps: [
      ...REPO,
      `echo second >> a.txt && ${at(100)} git commit -q -am second`,
      "git reset --soft HEAD~1 && git status -s",
      "git reset && git status -s",
      "git reset --hard && git status -s && cat a.txt",
      "echo dirty >> a.txt && git restore a.txt && git status -s",
      "echo staged >> a.txt && git add a.txt && git restore --staged a.txt && git status -s",
      "git checkout -- a.txt && git status -s",
      "git rm README && git status -s",
      "git rm --cached src/main.c && git status -s",
      "git mv a.txt b.txt && git status -s",
      "git status",
      "git rm no-such-file",
      "git mv no-such x",
      `${at(200)} git commit -q -m 'moves' && git reset --hard HEAD~1 && git status -s`,
      "git reflog",
      "git clean -n && git clean -f",
    ],
  },
  "commit -a, --amend, --allow-empty": {
    steps: [
      ...REPO,
      `echo more >> a.txt && ${at(100)} git commit -a -m 'commit -a'`,
      `${at(200)} git commit --amend -m 'amended message'`,
      `${at(300)} git commit --allow-empty -m empty`,
      "git commit -m 'nothing'",
      "git log --format='%h %s %ad' --date=raw",
      "echo x > untracked && git commit -m 'only untracked'",
      "GIT_AUTHOR_NAME='Other Person' git commit -q --allow-empty -m other && git log -1 --format='%an %cn'",
    ],
  },
  "clone of a local path": {
    steps: [
      "mkdir src && cd src && git init -q -b main && echo a > a && git add a && git commit -q -m one && git branch dev",
      "git clone src copy",
      "cd copy && git log --oneline",
      "cd copy && git remote -v",
      "cd copy && git branch -a",
      "cd copy && git status",
      "cd src && echo b > b && git add b && " + at(100) + " git commit -q -m two",
      "cd copy && git fetch 2>&1; git log --oneline origin/main",
      "cd copy && git pull --ff-only",
      "git clone --bare src bare.git && git -C bare.git log --oneline",
      "git clone no-such-dir x",
    ],
  },
  "push and fetch with a bare repository": {
    steps: [
      "git init -q --bare -b main remote.git && ls remote.git",
      "git init -q -b main repo && cd repo && echo a > a && git add a && git commit -q -m one",
      "cd repo && git remote add origin ../remote.git && git remote -v",
      "cd repo && git push -u origin main",
      "cd repo && git branch -vv",
      "git -C remote.git log --oneline",
      `git clone -q remote.git other && cd other && echo b > b && git add b && ${at(100)} git commit -q -m two && git push`,
      "cd repo && git fetch && git status -sb",
      "cd repo && git pull",
      "cd repo && git log --oneline --all",
      "cd repo && git ls-remote origin",
      "cd repo && git push origin main:side && git push origin --delete side",
      "cd repo && git push origin no-such-branch",
      `cd repo && echo c > c && git add c && ${at(200)} git commit -q -m three && cd ../other && echo d > d && git add d && ${at(300)} git commit -q -m four && git push`,
      "cd repo && git remote -v && git remote rename origin upstream && git remote",
    ],
    // git 2.44's templates no longer make branches/ (the host's 2.39 does).
    v247: { 0: { stdout: "HEAD\nconfig\ndescription\nhooks\ninfo\nobjects\nrefs\n" } },
  },
  "hooks, aliases, attributes, clean": {
    steps: [
      ...REPO,
      "printf '#!/bin/sh\\necho pre-commit ran >&2\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
      `echo x >> a.txt && ${at(100)} git commit -q -am hooked`,
      "printf '#!/bin/sh\\necho rejected >&2\\nexit 1\\n' > .git/hooks/pre-commit",
      `echo y >> a.txt && ${at(200)} git commit -q -am rejected; echo $?`,
      `${at(200)} git commit -q --no-verify -m 'no verify' && git log -1 --format=%s`,
      "printf '#!/bin/sh\\necho \"msg: $(head -1 $1)\" >&2\\n' > .git/hooks/commit-msg && chmod +x .git/hooks/commit-msg && rm .git/hooks/pre-commit",
      `${at(300)} git commit -q --allow-empty -m 'with a message hook'`,
      "echo '*.bin binary' > .gitattributes && printf 'a\\0b' > f.bin && git add . && git diff --cached --stat",
      "git check-attr -a f.bin",
      "git config alias.last 'log -1 --format=%s' && git last",
      "git config alias.hi '!echo from a shell alias' && git hi",
      "mkdir -p junk/deep && touch junk/deep/x scratch.tmp && echo '*.tmp' > .gitignore",
      "git clean -n",
      "git clean -nd",
      "git clean -ndX",
      "git clean -fdx && git status -s",
    ],
  },
  "format-patch, am, apply": {
    steps: [
      ...REPO,
      `echo patch1 >> a.txt && ${at(100)} git commit -q -am 'patch one'`,
      "git format-patch -1 --no-signature --stdout > ../p.patch; cat ../p.patch",
      "git format-patch -1 --stdout | tail -3",
      "git format-patch -1 --no-signature -o ../out && ls ../out",
      "git reset -q --hard HEAD~1 && git apply --stat ../p.patch && git apply --check ../p.patch && git apply ../p.patch && git status -s",
      `git checkout -q -- . && ${at(200)} git am ../p.patch && git log --oneline`,
      "git diff HEAD~1 > ../d.diff && git apply -R ../d.diff && git status -s && git diff",
      "git apply ../no-such.patch",
      `git checkout -q -- . && ${at(300)} git am ../p.patch`,
      "git am --abort && git status -s",
    ],
    // format-patch's signature is git's version.
    v247: {
      5: { stdout: "-- \n2.47.3\n\n" },
      // git 2.45 prints am's way out of a failed patch as hints on stderr (advice.mergeConflict), not on stdout.
      11: {
        stdout: "Applying: patch one\nPatch failed at 0001 patch one\n",
        stderr: [
          "error: patch failed: a.txt:1",
          "error: a.txt: patch does not apply",
          "hint: Use 'git am --show-current-patch=diff' to see the failed patch",
          'hint: When you have resolved this problem, run "git am --continue".',
          'hint: If you prefer to skip this patch, run "git am --skip" instead.',
          'hint: To restore the original branch and stop patching, run "git am --abort".',
          'hint: Disable this message with "git config advice.mergeConflict false"',
          "",
        ].join("\n"),
      },
    },
  },
  "file modes": {
    steps: [
      ...REPO,
      `printf '#!/bin/sh\\necho ran\\n' > run.sh && chmod +x run.sh && git add run.sh && ${at(100)} git commit -q -m exec && git ls-files -s run.sh`,
      "git clone -q . ../copy && cd ../copy && git status -s && ./run.sh && stat -c %a run.sh a.txt",
      "cd ../copy && chmod -x run.sh && git status -s && git diff",
      "cd ../copy && git config core.fileMode false && git status -s",
      "stat -c %a .git/objects/$(git rev-parse HEAD | cut -c1-2)/* .git/config .git/index",
      "git config core.fileMode",
    ],
  },
  "grep, blame, rev-parse, ls-files": {
    steps: [
      ...REPO,
      `echo 'two again' >> a.txt && ${at(100)} git commit -q -am more`,
      "git grep two",
      "git grep -n -i TWO -- a.txt",
      "git grep -c main",
      "git grep nothing-matches",
      "git blame a.txt",
      "git blame -s a.txt",
      "git rev-parse --show-toplevel",
      "cd src && git rev-parse --show-prefix && git rev-parse --git-dir",
      "git rev-parse HEAD~1 HEAD^{tree}",
      "git ls-files -o --exclude-standard; git ls-files --stage src",
      "git ls-tree -r HEAD",
      "git count-objects",
      "git fsck 2>&1 | sort",
    ],
  },
};

let vm: AgentOs;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "git-diff-"));
  vm = await AgentOs.create();
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

function onHost(dir: string, step: string): Outcome {
  const r = spawnSync("bash", ["-c", step], {
    cwd: `${dir}/w`,
    // The host's /etc/gitconfig is not read; the VM has none.
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: `${dir}/home`, GIT_CONFIG_NOSYSTEM: "1", ...ENV },
    encoding: "utf8",
    timeout: RUN_DEADLINE_MS,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

async function inVm(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(step, { cwd: `${dir}/w`, env: { HOME: `${dir}/home`, ...ENV }, timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

const names = Object.keys(CASES);
const total = Object.values(CASES).reduce((n, c) => n + c.steps.length, 0);

describe.skipIf(!hostVersion).concurrent(`git in the VM against the host's ${hostVersion} (${names.length} cases, ${total} command lines)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    const dir = join(root, name.replace(/[^a-z0-9]+/gi, "-"));
    for (const d of ["w", "home"]) {
      mkdirSync(join(dir, d), { recursive: true });
      await vm.mkdir(join(dir, d), { recursive: true });
    }
    const norm = (o: Outcome): Outcome => ({ stdout: o.stdout.replaceAll(dir, "$DIR"), stderr: o.stderr.replaceAll(dir, "$DIR"), exitCode: o.exitCode });
    for (const [i, step] of c.steps.entries()) {
      const expected = norm(onHost(dir, step));
      const got = norm(await inVm(dir, step));
      const v247 = c.v247?.[i];
      expect(got, `step ${i}: ${step}`).toEqual(v247 ? { ...expected, ...v247 } : expected);
    }
  }, CASE_DEADLINE_MS * 4);
});
