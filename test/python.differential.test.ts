import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's python3 (CPython 3.13.5, guests/dist/python3.wasm) against the host's python3: each case is a script
 * run as `python3 main.py` (with the case's other files and stdin) in a directory of its own, in the VM and on
 * the host; stdout, stderr and the exit status must be identical. The scripts use what behaves the same in
 * every CPython 3.x the host may have (3.11 on the machine this was written on): no version strings, no
 * tracebacks (3.13 adds lines). errno numbers and texts are Linux's in both. Threads are not used: the VM has
 * none for Python yet.
 */

const hostPython = spawnSync("python3", ["-c", "import sys; print(sys.version_info[1])"], { encoding: "utf8" });
const hasHostPython = hostPython.status === 0;

interface Case {
  main: string;
  files?: Record<string, string>;
  stdin?: string;
  args?: string[];
}

const CASES: Record<string, Case> = {
  "print, arithmetic, big integers, floats": {
    main: `print(1 + 2, 2 ** 100, 7 // 2, -7 % 3, 10 / 4, round(2.675, 2), 0.1 + 0.2)
print(f"{3.14159:.2f} {255:#x} {1234567:,} {'x':>4}|")
print(divmod(17, 5), abs(-3), max([3, 1, 2]), sum(range(101)), int('ff', 16), float('1e-3'))`,
  },
  "strings and unicode": {
    main: `s = 'Grüße, 世界! '
print(s.upper(), s.strip().split(', '), len(s), s.encode('utf-8'), s[::-1])
print('-'.join(sorted('banana')), 'abc'.center(9, '*'), 'a,b,,c'.split(','), 'Hello World'.swapcase())
import unicodedata
print(unicodedata.name('é'), unicodedata.normalize('NFD', 'é').encode())`,
  },
  "collections and comprehensions": {
    main: `from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
c = Counter('mississippi'); print(sorted(c.items()), c.most_common(2))
d = defaultdict(list)
for k, v in [('a', 1), ('b', 2), ('a', 3)]: d[k].append(v)
print(dict(d), deque([1, 2, 3], maxlen=2), namedtuple('P', 'x y')(1, 2))
print({x: x * x for x in range(5)}, [y for y in range(20) if y % 7 == 0], {1, 2} | {3})
import itertools, functools
print(list(itertools.permutations('abc', 2))[:4], functools.reduce(lambda a, b: a * b, range(1, 11)))`,
  },
  "json round trip and formatting": {
    main: `import json, sys
data = json.load(sys.stdin)
data['added'] = [1.5, None, True, "é"]
print(json.dumps(data, sort_keys=True))
print(json.dumps(data, indent=2, ensure_ascii=False))
try:
    json.loads('{bad')
except json.JSONDecodeError as e:
    print('error:', e.msg, e.pos)`,
    stdin: '{"name": "vm", "n": [1, 2, 3], "nested": {"k": "v"}}',
  },
  "csv read and write": {
    main: `import csv, io
rows = list(csv.DictReader(open('data.csv', newline='')))
print(rows)
out = io.StringIO()
w = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
w.writerow(['a,b', 'c"d', 'e'])
w.writerows([[1, 2, 3], ['x', '', None]])
print(repr(out.getvalue()))
total = sum(int(r['qty']) * float(r['price']) for r in rows)
print(f'{total:.2f}')`,
    files: { "data.csv": 'item,qty,price\napple,3,0.5\n"pear, green",2,1.25\nfig,10,0.1\n' },
  },
  "regular expressions": {
    main: `import re
text = 'Error 404 at 10:32; error 500 at 11:05; ok 200 at 12:00'
print(re.findall(r'(?i)error (\\d+) at (\\d+:\\d+)', text))
print(re.sub(r'(\\d+):(\\d+)', r'\\2h\\1', text))
m = re.search(r'(?P<code>\\d{3}) at (?P<t>[\\d:]+)$', text); print(m.group('code'), m.groupdict(), m.span())
print(re.split(r'[;,]\\s*', 'a; b,c;d'), bool(re.fullmatch(r'[a-z]+\\d?', 'abc1')))
print(re.compile(r'^\\s*(#.*)?$', re.M).findall('x\\n  # c\\n\\ny'))`,
  },
  "files, directories and pathlib": {
    main: `import os, pathlib, shutil
p = pathlib.Path('work'); p.mkdir()
(p / 'a.txt').write_text('alpha\\n'); (p / 'sub').mkdir(); (p / 'sub' / 'b.md').write_text('beta')
print(sorted(str(x) for x in p.rglob('*')))
print((p / 'a.txt').read_text(), (p / 'a.txt').stat().st_size, (p / 'sub' / 'b.md').suffix)
shutil.copytree('work', 'copy'); os.rename('copy/a.txt', 'copy/c.txt')
print(sorted(os.listdir('copy')), os.path.exists('copy/a.txt'), os.path.getsize('copy/c.txt'))
with open('copy/c.txt', 'a') as f: f.write('more\\n')
print(open('copy/c.txt').read().splitlines())
shutil.rmtree('copy'); print(os.path.isdir('copy'), os.getcwd() == str(pathlib.Path.cwd()))
for root, dirs, files in os.walk('work'): print(root, sorted(dirs), sorted(files))`,
  },
  "file modes and stat": {
    main: `import os, stat
open('f.sh', 'w').write('#!/bin/sh\\necho hi\\n')
os.chmod('f.sh', 0o750)
st = os.stat('f.sh')
print(oct(stat.S_IMODE(st.st_mode)), stat.S_ISREG(st.st_mode), os.access('f.sh', os.X_OK))
os.mkdir('d', 0o700); print(oct(stat.S_IMODE(os.stat('d').st_mode)), stat.S_ISDIR(os.stat('d').st_mode))
os.symlink('f.sh', 'link'); print(os.path.islink('link'), os.readlink('link'), stat.S_ISLNK(os.lstat('link').st_mode))`,
  },
  "subprocess: run, capture, pipes, input, cwd, env": {
    main: `import subprocess, os
r = subprocess.run(['echo', 'hello', 'world'], capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
print(subprocess.check_output('printf "b\\\\na\\\\nc\\\\n" | sort | head -2', shell=True, text=True), end='')
r = subprocess.run(['tr', 'a-z', 'A-Z'], input='piped text', capture_output=True, text=True); print(r.stdout)
r = subprocess.run(['sh', '-c', 'echo out; echo err >&2; exit 3'], capture_output=True, text=True)
print(r.returncode, repr(r.stdout), repr(r.stderr))
r = subprocess.run(['sh', '-c', 'echo both; echo errs >&2'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True); print(repr(r.stdout))
os.mkdir('sub'); open('sub/x', 'w').close()
print(subprocess.run(['ls'], cwd='sub', capture_output=True, text=True).stdout, end='')
print(subprocess.run(['sh', '-c', 'echo $FOO'], env={'FOO': 'bar', 'PATH': os.environ['PATH']}, capture_output=True, text=True).stdout, end='')
try:
    subprocess.run(['false'], check=True)
except subprocess.CalledProcessError as e:
    print('failed:', e.returncode, e.cmd)
p = subprocess.Popen(['cat'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out, _ = p.communicate(b'x' * 100000); print(len(out), p.returncode)
print(os.system('exit 5') >> 8, subprocess.call(['true']))`,
  },
  "subprocess: a missing command": {
    main: `import subprocess
try:
    subprocess.run(['no-such-command-here'])
except FileNotFoundError as e:
    print(type(e).__name__, e.filename, e.strerror)
print(subprocess.run('no-such-command-here 2>/dev/null', shell=True).returncode)`,
  },
  "python starting python": {
    main: `import subprocess, sys
r = subprocess.run([sys.executable, '-c', 'import sys; print(sys.argv[1:]); sys.exit(4)', 'a', 'b'], capture_output=True, text=True)
print(r.stdout, r.returncode)
print(subprocess.run([sys.executable, 'child.py'], input='from parent', capture_output=True, text=True).stdout)`,
    files: { "child.py": "import sys\nprint('child got', sys.stdin.read().upper())\n" },
  },
  "sqlite3 in a file": {
    main: `import sqlite3
con = sqlite3.connect('test.db')
con.execute('create table t (id integer primary key, name text, score real)')
con.executemany('insert into t (name, score) values (?, ?)', [('a', 1.5), ('b', 2.5), ('c', None)])
con.commit(); con.close()
con = sqlite3.connect('test.db')
print(con.execute('select count(*), sum(score), group_concat(name) from t').fetchone())
print(con.execute("select json_object('n', name) from t order by id desc").fetchall())
con.row_factory = sqlite3.Row
print([dict(r) for r in con.execute('select * from t where score is not null')])
try:
    con.execute('select * from missing')
except sqlite3.OperationalError as e:
    print('error:', e)`,
  },
  "compression and archives": {
    main: `import zlib, gzip, bz2, lzma, zipfile, tarfile, io
data = b'the quick brown fox ' * 200
for mod in (zlib, gzip, bz2, lzma):
    print(mod.__name__, mod.decompress(mod.compress(data)) == data)
print(len(zlib.compress(data, 9)), zlib.crc32(data), zlib.adler32(data))
with zipfile.ZipFile('a.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('x.txt', 'zipped'); z.writestr('d/y.txt', data)
with zipfile.ZipFile('a.zip') as z: print(z.namelist(), z.read('x.txt'), z.getinfo('d/y.txt').file_size)
with tarfile.open('a.tar.gz', 'w:gz') as t:
    info = tarfile.TarInfo('hello.txt'); body = b'tarred'; info.size = len(body); t.addfile(info, io.BytesIO(body))
with tarfile.open('a.tar.gz') as t: print(t.getnames(), t.extractfile('hello.txt').read())`,
  },
  "hashes, base64, uuid, random with a seed": {
    main: `import hashlib, hmac, base64, binascii, random, uuid
for name in ('md5', 'sha1', 'sha256', 'sha512', 'sha3_256', 'blake2b'):
    print(name, hashlib.new(name, b'agent').hexdigest()[:32])
print(hmac.new(b'key', b'msg', 'sha256').hexdigest())
print(base64.b64encode(b'\\x00\\xffbytes'), base64.b64decode('aGVsbG8='), binascii.hexlify(b'AB'))
random.seed(42); print(random.randint(1, 100), random.choice('abcdef'), random.sample(range(10), 3))
print(uuid.UUID('12345678123456781234567812345678'), uuid.uuid5(uuid.NAMESPACE_DNS, 'example.com'))`,
  },
  "decimal, fractions, statistics, math": {
    main: `from decimal import Decimal, getcontext
from fractions import Fraction
import statistics, math
getcontext().prec = 30
print(Decimal(1) / Decimal(7), Decimal('0.1') + Decimal('0.2'), Fraction(3, 4) + Fraction(1, 6))
print(statistics.mean([1, 2, 3, 4]), statistics.median([5, 1, 3]), statistics.pstdev([2, 4, 4, 4, 5, 5, 7, 9]))
print(math.sqrt(2), math.factorial(20), math.gcd(84, 36), math.isclose(0.1 + 0.2, 0.3), math.pi)`,
  },
  "dates and times in UTC": {
    main: `from datetime import datetime, timedelta, timezone, date
d = datetime(2024, 2, 28, 13, 5, 9, tzinfo=timezone.utc)
print(d + timedelta(days=1, hours=12), d.isoformat(), d.strftime('%Y-%m-%d %H:%M:%S %a %b %j'))
print(datetime.fromisoformat('2024-03-01T10:00:00+02:00').astimezone(timezone.utc))
print(date(2024, 12, 31).isocalendar()[:2], (date(2025, 1, 1) - date(2024, 1, 1)).days)
print(datetime.fromtimestamp(1700000000, tz=timezone.utc), datetime.strptime('03/04/21', '%d/%m/%y').date())`,
  },
  "classes, exceptions, generators, dataclasses": {
    main: `from dataclasses import dataclass, field, asdict
import enum, contextlib
@dataclass(order=True)
class Item:
    name: str
    tags: list = field(default_factory=list)
class Color(enum.Enum):
    RED = 1; GREEN = 2
def gen(n):
    for i in range(n): yield i * i
print(sorted([Item('b'), Item('a', ['x'])]), asdict(Item('c', [1])), Color(2), list(gen(5)))
class MyError(ValueError): pass
try:
    raise MyError('bad value')
except ValueError as e:
    print(type(e).__name__, e, isinstance(e, Exception))
with contextlib.suppress(KeyError): {}['x']
print('done')`,
  },
  "argv, stdin lines, stderr and exit status": {
    main: `import sys
print(sys.argv[1:])
lines = [l.rstrip('\\n') for l in sys.stdin]
print(len(lines), lines[-1])
print('to stderr', file=sys.stderr)
sys.exit(int(sys.argv[1]))`,
    args: ["7", "second arg"],
    stdin: "one\ntwo\nthree\n",
  },
  "an uncaught exception's last line and exit status": {
    main: `import sys
sys.tracebacklimit = 0
raise KeyError('missing key')`,
  },
  "modules beside the script, and packages": {
    main: `import helper
from pkg import sub
print(helper.double(21), sub.NAME, helper.__name__)
import importlib; print(importlib.import_module('pkg.sub').value())`,
    files: { "helper.py": "def double(x):\n    return 2 * x\n", "pkg/__init__.py": "", "pkg/sub.py": "NAME = 'sub'\ndef value():\n    return 'from sub'\n" },
  },
  "xml, html, textwrap, string formatting": {
    main: `import xml.etree.ElementTree as ET, html, textwrap, string
root = ET.fromstring('<r><i k="1">a</i><i k="2">b &amp; c</i></r>')
print([(e.get('k'), e.text) for e in root.iter('i')], ET.tostring(root.find('i')))
print(html.escape('<a href="x">&</a>'), html.unescape('&lt;&eacute;&gt;'))
print(textwrap.fill('The quick brown fox jumps over the lazy dog ' * 3, width=30))
print(string.Template('$who likes $what').substitute(who='vm', what='python'), string.ascii_lowercase[:5])`,
  },
  "struct, array, bytes, memoryview": {
    main: `import struct, array
b = struct.pack('<IhQ?', 1, -2, 2**40, True); print(b.hex(), struct.unpack('<IhQ?', b), struct.calcsize('<IhQ?'))
a = array.array('i', [3, 1, 2]); a.append(5); print(a.tolist(), a.itemsize)
m = memoryview(bytearray(b'abcdef')); m[0:2] = b'XY'; print(bytes(m), m[2:4].tobytes())
print(bytes.fromhex('de ad be ef'), int.from_bytes(b'\\x01\\x00', 'little'), (1024).to_bytes(2, 'big'))`,
  },
  "errno numbers and messages are Linux's": {
    main: `import errno, os, socket, subprocess
print(sorted((n, getattr(errno, n)) for n in dir(errno) if n.startswith('E')))
print(sorted(errno.errorcode.items()))
print([os.strerror(n) for n in range(1, 134)], os.strerror(0), os.strerror(4000))
os.mkdir('full'); open('full/f', 'w').close()
attempts = [lambda: open('missing.txt'), lambda: open('.'), lambda: os.mkdir('full'), lambda: os.rmdir('full'),
            lambda: os.listdir('main.py'), lambda: os.read(99, 1), lambda: subprocess.run(['no-such-command-x'])]
for attempt in attempts:
    try:
        attempt()
    except OSError as e:
        print(type(e).__name__, e.errno, e.strerror, e.filename, e.errno == errno.ENOENT, '|', e)
print(type(OSError(errno.ENOENT, 'x')).__name__, type(OSError(errno.EAGAIN, 'x')).__name__, type(OSError(errno.ECONNREFUSED, 'x')).__name__)
probe = socket.socket(); probe.bind(('127.0.0.1', 0)); port = probe.getsockname()[1]; probe.close()
s = socket.socket(); print(s.connect_ex(('127.0.0.1', port)) == errno.ECONNREFUSED); s.close()
try:
    socket.create_connection(('127.0.0.1', port))
except OSError as e:
    print(type(e).__name__, e)`,
  },
  "environment and os functions": {
    main: `import os, shutil, tempfile
print(os.environ.get('CASE_VAR'), 'PATH' in os.environ, os.sep, os.linesep == '\\n', os.name)
print(shutil.which('sh') is not None, os.path.expanduser('~') == os.environ['HOME'])
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, 'f'); open(p, 'w').write('t'); print(os.listdir(d))
print(os.path.join('a', 'b', '../c'), os.path.normpath('a/b/../c'), os.path.splitext('x.tar.gz'))`,
  },
  "python -m modules": {
    main: `import subprocess, sys
print(subprocess.run([sys.executable, '-m', 'json.tool', '--sort-keys'], input='{"b": 1, "a": [1, 2]}', capture_output=True, text=True).stdout, end='')
print(subprocess.run([sys.executable, '-m', 'base64', '-e'], input='hello', capture_output=True, text=True).stdout, end='')
print(subprocess.run([sys.executable, '-c', 'import this'], capture_output=True, text=True).stdout.splitlines()[0])`,
  },
};

let vm: AgentOs;
let hostRoot: string;

beforeAll(async () => {
  hostRoot = mkdtempSync(join(tmpdir(), "agentos-python-"));
  vm = await AgentOs.create({ env: { CASE_VAR: "set" } });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

describe.skipIf(!hasHostPython)("python3 in the VM against the host's python3", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(name, async () => {
      const dir = name.replace(/[^a-z0-9]+/gi, "-");
      const files = { "main.py": c.main, ...(c.files ?? {}) };
      const hostDir = join(hostRoot, dir);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(hostDir, path)), { recursive: true });
        writeFileSync(join(hostDir, path), text);
        await vm.mkdir(posix.dirname(`/w/${dir}/${path}`), { recursive: true });
        await vm.writeFile(`/w/${dir}/${path}`, text);
      }
      const args = c.args ?? [];
      const host = spawnSync("python3", ["main.py", ...args], {
        cwd: hostDir,
        input: c.stdin ?? "",
        encoding: "utf8",
        env: { PATH: "/usr/bin:/bin", HOME: hostDir, LANG: "C.UTF-8", CASE_VAR: "set", PYTHONDONTWRITEBYTECODE: "1" },
        timeout: RUN_DEADLINE_MS,
      });
      const quoted = args.map((a) => `'${a}'`).join(" ");
      const guest = await vm.exec(`cd /w/${dir} && HOME=/w/${dir} python3 main.py ${quoted}`, { stdin: c.stdin ?? "", timeout: RUN_DEADLINE_MS });
      expect({ stdout: guest.stdout, stderr: guest.stderr, exitCode: guest.exitCode }).toEqual({ stdout: host.stdout, stderr: host.stderr, exitCode: host.status });
    });
  }
});
