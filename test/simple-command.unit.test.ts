// Which commands the exec router may start without a shell (src/exec/simple-command.ts), and their words.
import { describe, expect, it } from "vitest";
import { shellChildEnv, simpleCommand } from "../src/kernel/simple-command.js";

describe("simpleCommand", () => {
  it.each([
    ["ls", ["ls"]],
    ["  ls   -l\t/tmp  ", ["ls", "-l", "/tmp"]],
    ["node -e 'console.log(1 + $x)'", ["node", "-e", "console.log(1 + $x)"]],
    [`grep -r "a b" .`, ["grep", "-r", "a b", "."]],
    [`prog %s a'b'"c"`, ["prog", "%s", "abc"]],
    ["cmd '' x", ["cmd", "", "x"]],
    ["sort -t, -k2 --foo=bar a@b:c+d", ["sort", "-t,", "-k2", "--foo=bar", "a@b:c+d"]],
  ])("%j is %j", (command, words) => expect(simpleCommand(command)).toEqual(words));

  it.each([
    "",
    "   ",
    "echo hi",
    "true",
    "[ -f x ]",
    "time ls",
    "X=1 ls",
    "'X=1' ls",
    "ls *.txt",
    "ls ?",
    "ls [ab]",
    "ls {a,b}",
    "ls ~",
    "ls $HOME",
    'ls "$HOME"',
    'ls "`pwd`"',
    'ls "a\\b"',
    "ls \\ a",
    "ls > f",
    "ls < f",
    "ls | wc",
    "ls; ls",
    "ls && ls",
    "ls &",
    "ls # comment",
    "ls\nls",
    "(ls)",
    "! ls",
    "ls 'unterminated",
    "'' ls",
    "ls é",
  ])("%j goes to the shell", (command) => expect(simpleCommand(command)).toBeUndefined());
});

describe("shellChildEnv", () => {
  it("orders names as the shell's environment list does, PWD being the shell's directory", () => {
    expect(Object.entries(shellChildEnv({ PWD: "/old", A: "1", B: "2", A0: "3", _a: "4", a: "5" }, "/x")!)).toEqual([
      ["A0", "3"],
      ["A", "1"],
      ["B", "2"],
      ["PWD", "/x"],
      ["_a", "4"],
      ["a", "5"],
    ]);
  });

  it("adds PWD after the rest when the environment has none, as the shell sets it", () => {
    expect(Object.entries(shellChildEnv({ Z: "1", A: "2" }, "/w")!)).toEqual([
      ["A", "2"],
      ["Z", "1"],
      ["PWD", "/w"],
    ]);
  });

  it("leaves names that are not variables' to the shell", () => {
    expect(shellChildEnv({ "A-B": "1" }, "/")).toBeUndefined();
  });
});
