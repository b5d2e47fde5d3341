/**
 * The rows of `pnpm bench:tools` (the C guests sqlite3 and make, issue 32's speed targets), each run in the
 * VM and on the host in the same directory layout: a command line, its exact stdout, and the files it needs.
 */
export interface ToolCase {
  name: string;
  command: string;
  stdout: string;
}

/** 120,000 rows of ~90 bytes: a database file of about 12 MB. */
export const BIG_DB_SQL = [
  "create table t(id integer primary key, k text, v text);",
  "with recursive c(n) as (select 1 union all select n + 1 from c where n < 120000)",
  "  insert into t(k, v) select printf('key%06d', n), printf('%080d', n * 7919) from c;",
  "create index t_k on t(k);",
].join("\n");

/** 50 targets, each a recipe through sh writing one file. */
export const MAKEFILE_50 = [
  `TARGETS := ${Array.from({ length: 50 }, (_, i) => `t${i}`).join(" ")}`,
  "all: $(TARGETS)",
  "$(TARGETS):",
  "\t@echo $@ > out/$@",
  ".PHONY: all $(TARGETS)",
  "",
].join("\n");

export const toolCases: ToolCase[] = [
  // The start of a coreutils command, the yardstick of the tools' starts.
  { name: "cat /dev/null (coreutils)", command: "cat /dev/null", stdout: "" },
  { name: "sqlite3 :memory: 'select 1'", command: "sqlite3 :memory: 'select 1'", stdout: "1\n" },
  { name: "make -s -f empty.mk", command: "make -s -f empty.mk", stdout: "" },
  {
    name: "sqlite3 on a 12 MB database: full scan",
    command: "sqlite3 big.db \"select count(*), sum(length(v)) from t where v like '%42%'\"",
    stdout: "9452|756160\n",
  },
  {
    name: "sqlite3 on a 12 MB database: 1,000 indexed lookups",
    command: "sqlite3 big.db \"with recursive c(n) as (select 1 union all select n + 97 from c where n < 97000) select count(*) from c join t on t.k = printf('key%06d', c.n)\"",
    stdout: "1001\n",
  },
  { name: "make -j2 of 50 targets", command: "make -j2 -s", stdout: "" },
];
