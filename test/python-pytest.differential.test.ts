import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * pytest in the VM against pytest on the host: the same wheels (test/fixtures/python-wheels: pytest 9.2.0 and
 * its dependencies) are installed with `pip install --no-index --find-links` into a venv made by `python3 -m venv`
 * on each side, then each case runs `python -m pytest` with its arguments in a project directory of its own.
 * stdout and the exit status must be identical once the run's duration ("in 0.12s") and the session header's
 * platform line (the VM's Python is 3.13 on WASI, the host's whatever 3.x it has) are set aside.
 */

const WHEELS = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "python-wheels");
const hostPython = spawnSync("python3", ["-m", "venv", "--help"], { encoding: "utf8" });
const hasHostPython = hostPython.status === 0;

interface Case {
  files: Record<string, string>;
  args: string[];
}

const FAILING = `import pytest

@pytest.fixture
def data():
    return {"a": 1, "b": [1, 2, 3]}

def test_pass(data):
    assert data["a"] == 1

@pytest.mark.parametrize("n,sq", [(1, 1), (2, 4), (3, 10)])
def test_square(n, sq):
    assert n * n == sq

def test_dict(data):
    assert data == {"a": 1, "b": [1, 2, 4]}

def test_raises():
    with pytest.raises(ZeroDivisionError):
        1 / 0

@pytest.mark.skip(reason="not today")
def test_skipped():
    pass

def test_capture(capsys):
    print("hello")
    assert capsys.readouterr().out == "hello\\n"
`;

const CASES: Record<string, Case> = {
  "-q: passes, rewritten assertions, parametrize, skip, capsys": { files: { "test_x.py": FAILING }, args: ["-q"] },
  "-q -k selects by keyword": { files: { "test_x.py": FAILING }, args: ["-q", "-k", "square"] },
  "-v --tb=short: the session header and one line per test": { files: { "test_x.py": FAILING }, args: ["-v", "--tb=short"] },
  "-x stops at the first failure": { files: { "test_x.py": FAILING }, args: ["-q", "-x"] },
  "--collect-only -q lists the test ids": { files: { "test_x.py": FAILING }, args: ["--collect-only", "-q"] },
  "-rA --tb=line: every outcome in the summary": { files: { "test_x.py": FAILING }, args: ["-rA", "--tb=line"] },
  "conftest fixtures, pytest.ini markers, -m and --strict-markers": {
    files: {
      "pytest.ini": "[pytest]\nmarkers =\n    slow: a slow test\naddopts = --strict-markers\n",
      "conftest.py": `import pytest

@pytest.fixture(scope="session")
def base():
    return 40

@pytest.fixture
def answer(base):
    yield base + 2
`,
      "tests/test_marks.py": `import pytest

@pytest.mark.slow
def test_slow(answer):
    assert answer == 42

def test_fast(answer):
    assert answer > 0

class TestGroup:
    def test_method(self, base):
        assert base == 40

    @pytest.mark.slow
    def test_slow_method(self):
        assert True
`,
    },
    args: ["-v", "-m", "slow"],
  },
  "all passing: tmp_path, monkeypatch, approx, unittest classes, xfail": {
    files: {
      "test_tools.py": `import os, unittest
import pytest

def test_tmp_path(tmp_path):
    p = tmp_path / "f.txt"
    p.write_text("data")
    assert p.read_text() == "data" and len(list(tmp_path.iterdir())) == 1

def test_monkeypatch(monkeypatch):
    monkeypatch.setenv("CASE_VAR", "set")
    assert os.environ["CASE_VAR"] == "set"

def test_approx():
    assert 0.1 + 0.2 == pytest.approx(0.3)

@pytest.mark.xfail(reason="known bug")
def test_known_bug():
    assert 1 == 2

class TestOld(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(sum([1, 2, 3]), 6)

    def test_in(self):
        self.assertIn("a", "abc")
`,
    },
    args: ["-q", "-rxX"],
  },
  "no tests collected: exit status 5": { files: { "test_none.py": "x = 1\n" }, args: ["-q"] },
  "an error in a fixture and an error while collecting": {
    files: {
      "test_errors.py": `import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture failed")

def test_uses_broken(broken):
    pass
`,
      "test_syntax.py": "def test_ok(:\n    pass\n",
    },
    args: ["-q", "--tb=no"],
  },
};

interface Outcome {
  stdout: string;
  status: number;
}

/** The run's duration, and the line that names the platform and the Python. */
function normalize(out: string): string {
  return out
    .replace(/ in \d+\.\d+s\b/g, " in <t>s")
    .replace(/^platform .*$/gm, "platform <platform>");
}

let vm: AgentOs;
let hostRoot: string;

beforeAll(async () => {
  if (!hasHostPython) return;
  hostRoot = mkdtempSync(join(tmpdir(), "agentos-pytest-"));
  const venv = join(hostRoot, "venv");
  const made = spawnSync("python3", ["-m", "venv", venv], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`host venv: ${made.stderr}`);
  const installed = spawnSync(join(venv, "bin", "pip"), ["install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", WHEELS, "pytest"], { encoding: "utf8" });
  if (installed.status !== 0) throw new Error(`host pip: ${installed.stderr}`);

  // The project directories and the venv are at the same absolute paths in the VM, as pytest prints them.
  vm = await AgentOs.create({ mounts: [{ path: "/wheels", hostDir: WHEELS }] });
  await vm.mkdir(hostRoot, { recursive: true });
  const vmInstalled = await vm.exec(`python3 -m venv ${venv} && ${venv}/bin/pip install -q --disable-pip-version-check --no-index --find-links /wheels pytest`, { timeout: SETUP_DEADLINE_MS });
  if (vmInstalled.exitCode !== 0) throw new Error(`VM pip (${vmInstalled.exitCode}): ${vmInstalled.stderr}`);
  expect(vmInstalled.stderr).toBe("");

  for (const [index, testCase] of Object.values(CASES).entries()) {
    for (const [name, text] of Object.entries(testCase.files)) {
      const hostPath = join(hostRoot, `case${index}`, name);
      mkdirSync(dirname(hostPath), { recursive: true });
      writeFileSync(hostPath, text);
      await vm.mkdir(posix.dirname(hostPath), { recursive: true });
      await vm.writeFile(hostPath, text);
    }
  }
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

function runHost(index: number, args: string[]): Promise<Outcome> {
  const python = join(hostRoot, "venv", "bin", "python");
  const options = { cwd: join(hostRoot, `case${index}`), encoding: "utf8" as const, timeout: RUN_DEADLINE_MS, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", COLUMNS: "80", LANG: "C.UTF-8" } };
  return new Promise((resolve) => {
    execFile(python, ["-m", "pytest", "-p", "no:cacheprovider", ...args], options, (error, stdout) => {
      resolve({ stdout: normalize(stdout), status: error ? Number(error.code ?? -1) : 0 });
    });
  });
}

async function runVm(index: number, args: string[]): Promise<Outcome> {
  const quoted = args.map((arg) => `'${arg}'`).join(" ");
  const result = await vm.exec(`COLUMNS=80 ${hostRoot}/venv/bin/python -m pytest -p no:cacheprovider ${quoted}`, { cwd: join(hostRoot, `case${index}`), timeout: RUN_DEADLINE_MS });
  return { stdout: normalize(result.stdout), status: result.exitCode };
}

describe.skipIf(!hasHostPython)("pytest in the VM against pytest on the host", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  for (const [index, [name, testCase]] of Object.entries(CASES).entries()) {
    it(name, async () => {
      const [inVm, onHost] = await Promise.all([runVm(index, testCase.args), runHost(index, testCase.args)]);
      expect(inVm).toEqual(onHost);
      // Each case means something only if pytest ran: a collection summary line ends every run.
      expect(onHost.stdout).toMatch(/(passed|failed|error|no tests ran|\d+ tests? collected)/);
    });
  }
});
