import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's sqlite3 (guests/dist/sqlite3.wasm, SQLite 3.40.1) against the host's sqlite3: each case is a sequence
 * of command lines run one by one through a shell in a directory of the same absolute path in the VM and on the
 * host, with an empty HOME (no ~/.sqliterc); every line's stdout, stderr and exit status must be identical.
 * The cases use no output that depends on the version beyond 3.40's (Debian 12's is 3.40.1, the VM's version);
 * where the VM differs by design the case records the VM's exact outcome and says why.
 */

const host = spawnSync("sqlite3", ["-version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.trim() : "";

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Case {
  steps: string[];
  /** Step index → what the VM prints there by design ($DIR: the case's directory). */
  vm?: Record<number, Partial<Outcome>>;
}

/** A table of a few rows with text, integers, reals, NULL and a blob, the start of most cases. */
const PEOPLE = [
  "cat > people.sql <<'EOF'",
  "CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT, score REAL, note);",
  "INSERT INTO people VALUES (1, 'Ada', 36, 9.5, NULL), (2, 'Brian \"B\" Kernighan', 81, 7.25, 'comma, inside'),",
  "  (3, 'Grace', 85, NULL, x'00ff10'), (4, 'Ken', 80, 8.0, 'line1",
  "line2');",
  "CREATE INDEX people_age ON people(age);",
  "CREATE VIEW elders AS SELECT name FROM people WHERE age > 80;",
  "EOF",
].join("\n");
const DB = `${PEOPLE}\nsqlite3 p.db < people.sql`;

const CASES: Record<string, Case> = {
  "-version": {
    steps: ["sqlite3 -version | cut -d' ' -f1-3"],
  },
  "SQL from argv": {
    steps: [
      "sqlite3 :memory: 'select 1, 2; select \"a\", null, 2.5'",
      "sqlite3 :memory: 'select 1' 'select 2' '.print done'",
      "sqlite3 -cmd '.mode csv' :memory: 'select 1, \"x,y\"'",
    ],
  },
  "SQL from stdin": {
    steps: [
      "printf 'create table t(a, b);\\ninsert into t values (1, \"one\"), (2, \"two\");\\nselect * from t;\\nselect count(*) from t;\\n' | sqlite3",
      "echo 'select 40 + 2;' | sqlite3 :memory:",
      "printf 'select 1;\\n-- a comment\\nselect\\n  2\\n;\\n' | sqlite3 -echo",
    ],
  },
  "-csv and -header": {
    steps: [DB, "sqlite3 -csv p.db 'select * from people order by id'", "sqlite3 -csv -header p.db 'select id, name, note from people order by id'", "sqlite3 -header p.db 'select id, name from people order by id'", "sqlite3 -noheader -csv p.db 'select 1'"],
  },
  "-json": {
    steps: [DB, "sqlite3 -json p.db 'select * from people order by id'", "sqlite3 -json p.db 'select 1 where 0'", "sqlite3 -json :memory: 'select json_object(\"a\", 1, \"b\", json_array(1, 2)) as j'"],
  },
  "-column, -box, -table, -markdown": {
    steps: [
      DB,
      "sqlite3 -column p.db 'select id, name, age from people order by id'",
      "sqlite3 -column -header p.db 'select id, name, score from people order by id'",
      "sqlite3 -box p.db 'select id, name, age from people order by id'",
      "sqlite3 -table p.db 'select id, name, age from people where id < 3'",
      "sqlite3 -markdown p.db 'select id, name from people where id < 3'",
    ],
  },
  "-line, -list, -tabs, -html, -separator": {
    steps: [
      DB,
      "sqlite3 -line p.db 'select id, name, age from people where id < 3'",
      "sqlite3 -list -separator ' ; ' p.db 'select id, name from people order by id'",
      "sqlite3 -tabs p.db 'select id, name, age from people where id < 4'",
      "sqlite3 -html p.db 'select id, name from people where id < 3'",
      "sqlite3 -nullvalue NULL p.db 'select id, score from people order by id'",
    ],
  },
  ".mode quote, insert, ascii": {
    steps: [
      DB,
      "sqlite3 p.db '.mode quote' 'select * from people order by id'",
      "sqlite3 p.db '.mode insert people2' 'select * from people order by id'",
      "sqlite3 p.db '.mode ascii' 'select id, name from people where id < 3' | od -c",
    ],
  },
  ".tables, .schema, .indexes": {
    steps: [
      DB,
      "sqlite3 p.db .tables",
      "sqlite3 p.db '.tables p%'",
      "sqlite3 p.db .schema",
      "sqlite3 p.db '.schema people'",
      "sqlite3 p.db .indexes",
      "sqlite3 p.db '.headers on' 'select type, name, tbl_name from sqlite_schema order by name'",
    ],
  },
  ".import": {
    steps: [
      "printf 'id,name,city\\n1,Ada,London\\n2,\"Smith, J\",\"New\\nYork\"\\n3,Ken,\\n' > in.csv && printf 'a\\tb\\n1\\t2\\n' > in.tsv",
      "sqlite3 i.db '.import --csv in.csv towns' '.schema towns' 'select * from towns'",
      "sqlite3 i.db 'create table t2(x, y, z)' '.import --csv --skip 1 in.csv t2' '.mode json' 'select * from t2'",
      "sqlite3 i.db '.mode tabs' '.import in.tsv tabbed' '.mode list' 'select a + b from tabbed'",
      "sqlite3 i.db '.import --csv no-such.csv t3'",
    ],
  },
  ".dump and its round trip": {
    steps: [
      DB,
      "sqlite3 p.db .dump",
      "sqlite3 p.db '.dump people'",
      "sqlite3 p.db .dump | sqlite3 copy.db && sqlite3 copy.db 'select count(*), sum(age) from people' .schema",
      "sqlite3 p.db '.dump --data-only elders'",
    ],
  },
  ".read, -init, .output, .once": {
    steps: [
      "printf 'create table r(x);\\ninsert into r values (7), (8);\\n.print read-ok\\n' > script.sql && sqlite3 r.db '.read script.sql' 'select sum(x) from r'",
      "printf '.mode csv\\n' > init.sql && sqlite3 -init init.sql r.db 'select x, x * 2 from r'",
      "sqlite3 r.db '.output out.txt' 'select x from r' '.output stdout' 'select 1' && cat out.txt",
      "sqlite3 r.db '.once once.txt' 'select 9' 'select 10' && cat once.txt",
      "sqlite3 r.db '.read no-such.sql'; echo status $?",
    ],
  },
  "a database file: create, reopen, update": {
    steps: [
      "sqlite3 f.db 'create table kv(k text primary key, v)' \"insert into kv values ('a', 1), ('b', 2)\" && ls f.db && test ! -e f.db-journal",
      "sqlite3 f.db \"update kv set v = v * 10 where k = 'b'\" 'select * from kv order by k'",
      "sqlite3 f.db 'pragma integrity_check' 'pragma page_size' 'pragma journal_mode'",
      "sqlite3 f.db 'begin' \"insert into kv values ('c', 3)\" 'rollback' 'select count(*) from kv'",
      "sqlite3 f.db 'pragma journal_mode=truncate' 'begin' \"insert into kv values ('d', 4)\" 'commit' 'select count(*) from kv' && ls",
      "head -c 16 f.db | od -c | head -1",
    ],
  },
  "journal mode WAL": {
    steps: ["sqlite3 w.db 'pragma journal_mode=wal' 'create table t(x)' 'insert into t values (1)' 'select * from t'"],
    // No WAL in the VM's build (guests/sqlite3/README.md: WAL needs memory shared between processes): the
    // pragma answers the mode the database keeps, as SQLite does where WAL is unavailable.
    vm: { 0: { stdout: "delete\n1\n" } },
  },
  "locking between two processes": {
    steps: [
      "sqlite3 d.db 'create table t(x)'",
      "sqlite3 d.db 'begin immediate' 'insert into t values (1)' '.shell sqlite3 d.db \"insert into t values (2)\"; echo writer $?' '.shell sqlite3 d.db \"select count(*) from t\"; echo reader $?' 'commit' 'select count(*) from t'; ls",
    ],
    // The VM's SQLite locks with a directory, d.db.lock (unix-dotfile: wasi-libc has no fcntl locks), which
    // has one level: while a writer holds it, a reader cannot even read the schema ("in prepare"), where
    // POSIX locks let it read the last committed state. A second writer is refused either way, and the lock
    // is gone once the first commits.
    vm: {
      1: {
        stdout: "writer 5\nreader 5\n1\nd.db\n",
        stderr: "Error: in prepare, database is locked (5)\nError: in prepare, database is locked (5)\n",
      },
    },
  },
  "-readonly and ATTACH": {
    steps: [
      "sqlite3 a.db 'create table t(x)' 'insert into t values (1)' && sqlite3 b.db 'create table u(y)' 'insert into u values (2)'",
      "sqlite3 -readonly a.db 'insert into t values (5)'; echo status $?",
      "sqlite3 a.db \"attach 'b.db' as b\" 'select x, y from t, b.u' '.databases' | sed \"s|$PWD|PWD|\"",
    ],
  },
  "syntax and constraint errors": {
    steps: [
      "sqlite3 :memory: 'select 1 +'; echo status $?",
      "sqlite3 :memory: 'selec 1'; echo status $?",
      "printf 'select 1;\\nselect nosuchfunc(2);\\nselect 3;\\n' | sqlite3; echo status $?",
      "printf 'select 1;\\nselect * from nosuch;\\nselect 3;\\n' | sqlite3 -bail; echo status $?",
      "sqlite3 :memory: 'create table t(x unique not null)' 'insert into t values (1)' 'insert into t values (1)' 'insert into t values (null)'; echo status $?",
      "sqlite3 :memory: '.nosuchcommand'; echo status $?",
    ],
  },
  "missing files and bad options": {
    steps: [
      "sqlite3 no-such-dir/x.db 'select 1'; echo status $?",
      "sqlite3 -readonly no-such.db 'select 1'; echo status $?; ls",
      "sqlite3 -nosuchoption; echo status $?",
      "echo 'not a database, a text file long enough to be read as one............................................' > text.db && sqlite3 text.db .tables; echo status $?",
    ],
  },
  "functions: core, math, dates, json": {
    steps: [
      "sqlite3 :memory: \"select abs(-3), round(2.567, 2), length('héllo'), upper('abc'), substr('hello', 2, 3), replace('aXbX', 'X', '-'), instr('hello', 'l'), hex('AB'), quote('it''s'), typeof(1.0), coalesce(null, 'x')\"",
      "sqlite3 :memory: 'select sqrt(16), pow(2, 10), floor(2.7), ceil(2.1), round(pi(), 5), log10(1000), printf(\"%05.1f|%-4s|%x\", 3.14159, \"ab\", 255)'",
      "sqlite3 :memory: \"select date('2024-02-28', '+1 day'), date('2023-02-28', '+1 day'), strftime('%Y %j %w', '2024-12-31'), julianday('2000-01-01'), datetime(0, 'unixepoch')\"",
      "sqlite3 :memory: \"select json_extract('{\\\"a\\\":[1,2,{\\\"b\\\":3}]}', '$.a[2].b'), json_array_length('[1,2,3]'), json('{ \\\"x\\\" : 1 }')\"",
      "sqlite3 :memory: 'select 1/0, 5 % 3, 7 / 2, 7 / 2.0, 1e308 * 10, -0.0, 9223372036854775807 + 1, cast(\"12abc\" as integer)'",
      "sqlite3 :memory: 'select soundex(\"Robert\"), soundex(\"Rupert\")'",
    ],
  },
  "queries: CTE, window functions, aggregates": {
    steps: [
      DB,
      "sqlite3 :memory: 'with recursive c(n) as (select 1 union all select n + 1 from c where n < 10) select group_concat(n, \"-\"), sum(n), avg(n) from c'",
      "sqlite3 -header -column p.db 'select name, age, rank() over (order by age desc) as r, sum(age) over () as total from people order by r, name'",
      "sqlite3 p.db 'select age / 10 * 10 as decade, count(*) from people group by decade having count(*) > 0 order by decade'",
      "sqlite3 p.db 'select * from elders order by name'",
      "sqlite3 :memory: 'with recursive c(n) as (select 1 union all select n + 1 from c where n < 100000) select count(*), max(n) from c'",
    ],
  },
  "full-text search and R*Tree": {
    steps: [
      "sqlite3 t.db \"create virtual table docs using fts5(title, body)\" \"insert into docs values ('one', 'the quick brown fox'), ('two', 'lazy dogs sleep'), ('three', 'quick quick dogs')\" \"select title from docs where docs match 'quick' order by rank\"",
      "sqlite3 t.db \"create virtual table d4 using fts4(body)\" \"insert into d4 values ('alpha beta'), ('beta gamma')\" \"select rowid from d4 where d4 match 'beta' order by rowid\"",
      "sqlite3 t.db 'create virtual table box using rtree(id, x0, x1, y0, y1)' 'insert into box values (1, 0, 10, 0, 10), (2, 20, 30, 20, 30)' 'select id from box where x0 <= 5 and x1 >= 5'",
    ],
  },
  "dot commands: .headers, .separator, .print, .echo, .nullvalue, .bail": {
    steps: [
      "sqlite3 :memory: '.headers on' '.separator \" : \"' 'select 1 as a, 2 as b'",
      "sqlite3 :memory: '.print hello world' '.print \"quoted arg\" more'",
      "sqlite3 :memory: '.echo on' 'select 42' '.echo off' 'select 43'",
      "sqlite3 :memory: '.nullvalue (nil)' 'select null, 1'",
      "printf '.bail on\\nselect 1;\\nselect x;\\nselect 2;\\n' | sqlite3; echo status $?",
      "sqlite3 :memory: '.system echo from the shell' '.shell echo again; echo status $?'",
    ],
  },
  "more dot commands: .show, .width, .parameter, .eqp, .sha3sum, .fullschema, .limit; wide characters": {
    steps: [
      "sqlite3 u.db 'create table t(a text, b int)' \"insert into t values ('héllo wörld', 1), ('日本語', 22)\"",
      "sqlite3 u.db .show",
      "sqlite3 u.db '.width 5 3' '.mode column' 'select * from t' '.mode box' 'select * from t'",
      "sqlite3 u.db '.parameter set :x 22' 'select a from t where b = :x' '.parameter list'",
      "sqlite3 u.db '.eqp on' 'select * from t where b = 1'",
      "sqlite3 u.db .sha3sum .fullschema '.limit length'",
      "sqlite3 -newline '|' -separator , u.db 'select * from t'",
      "sqlite3 u.db '.changes on' 'update t set b = b + 1'",
    ],
  },
  "large file database": {
    steps: [
      "sqlite3 big.db 'create table t(id integer primary key, v text)' 'with recursive c(n) as (select 1 union all select n + 1 from c where n < 20000) insert into t(v) select printf(\"row %08d %s\", n, hex(n)) from c' 'create index t_v on t(v)'",
      "sqlite3 big.db 'select count(*), min(v), max(v) from t' 'pragma integrity_check' 'select page_count * page_size > 500000 from pragma_page_count, pragma_page_size'",
      "sqlite3 big.db 'delete from t where id % 2 = 0' 'vacuum' 'select count(*) from t'",
    ],
  },
};

let vm: AgentOs;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "sqlite3-diff-"));
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
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: `${dir}/home`, LANG: "C.UTF-8" },
    encoding: "utf8",
    timeout: RUN_DEADLINE_MS,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

async function inVm(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(step, { cwd: `${dir}/w`, env: { HOME: `${dir}/home`, LANG: "C.UTF-8" }, timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

const names = Object.keys(CASES);
const total = Object.values(CASES).reduce((n, c) => n + c.steps.length, 0);

describe.skipIf(!hostVersion).concurrent(`sqlite3 in the VM against the host's ${hostVersion.split(" ")[0]} (${names.length} cases, ${total} command lines)`, () => {
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
      const mine = c.vm?.[i];
      expect(got, `step ${i}: ${step}`).toEqual(mine ? { ...expected, ...mine } : expected);
    }
  }, CASE_DEADLINE_MS * 4);
});

// The shell's version line: SQLite's release and upstream's source id (Debian's own build ends the id in
// "alt1", SQLite's mark of patched sources; the VM's is built from the sources unchanged).
describe("sqlite3 -version", () => {
  it("names SQLite 3.40.1 and its upstream source id", async () => {
    const vm1 = await AgentOs.create();
    try {
      const r = await vm1.exec("sqlite3 -version", { timeout: RUN_DEADLINE_MS });
      expect(r).toMatchObject({ exitCode: 0, stderr: "", stdout: "3.40.1 2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f38a24\n" });
    } finally {
      await vm1.dispose();
    }
  }, CASE_DEADLINE_MS);
});
