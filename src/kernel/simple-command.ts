/**
 * Commands a shell would run as one program with literal words (`ls -l /tmp`, `node -e 'console.log(1)'`):
 * the exec router and the kernel's `sh -c` start those programs themselves, as `bash -c` execs a script that
 * is a single simple command, and leave everything else to the shell.
 */

/** Words a shell gives a meaning of its own as a command name: bash's builtins and reserved words. */
const SHELL_WORDS = new Set(
  (
    ". : [ [[ ]] ! { } alias bg bind break builtin caller case cd command compgen complete compopt continue coproc " +
    "declare dirs disown do done echo elif else enable esac eval exec exit export false fc fg fi for function getopts " +
    "hash help history if in jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return " +
    "select set shift shopt source suspend test then time times trap true type typeset ulimit umask unalias unset until wait while"
  ).split(" "),
);

/** Characters that stand for themselves outside quotes: no expansion, glob, redirection, operator or comment. */
const PLAIN = /^[A-Za-z0-9_./:@%+,=-]$/;
/** Inside double quotes these still expand ($, `, \). */
const EXPANDS_IN_DOUBLE_QUOTES = /[$`\\]/;

/**
 * The words of `command` when it is one simple command of literal words naming a program (not a builtin,
 * a reserved word or an assignment); undefined for anything else.
 */
export function simpleCommand(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end < 0) return undefined;
      const quoted = command.slice(i + 1, end);
      if (c === '"' && EXPANDS_IN_DOUBLE_QUOTES.test(quoted)) return undefined;
      word = (word ?? "") + quoted;
      i = end;
    } else if (PLAIN.test(c)) word = (word ?? "") + c;
    else return undefined;
  }
  if (word !== undefined) words.push(word);
  const name = words[0];
  if (name === undefined || name === "" || SHELL_WORDS.has(name)) return undefined;
  // `NAME=value cmd` is an assignment; the raw first word decides, quotes and all.
  const firstRaw = command.trimStart().split(/[ \t]/, 1)[0]!;
  if (firstRaw.includes("=")) return undefined;
  return words;
}

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment the VM's shell gives a program it starts (guests/sh/exec.go `environ`): the exported
 * variables ordered as its environment list orders them (by "NAME=", so A0 comes before A), and PWD, the
 * shell's directory, which bash exports. Undefined when a name is not a
 * shell variable's: the shell then decides what to do with it.
 */
export function shellChildEnv(env: Record<string, string>, cwd: string): Record<string, string> | undefined {
  const names = Object.keys(env);
  if (!names.every((n) => VALID_NAME.test(n))) return undefined;
  const out: Record<string, string> = {};
  const key = (n: string): string => `${n}=`;
  for (const name of names.sort((a, b) => (key(a) < key(b) ? -1 : 1))) out[name] = env[name]!;
  // The shell sets PWD to its directory: in place when it came in the environment, else after the rest.
  out.PWD = cwd;
  return out;
}
