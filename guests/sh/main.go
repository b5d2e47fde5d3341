// Command sh is the VM's shell: mvdan.cc/sh's bash interpreter (guests/sh/README.md), running external
// commands as kernel processes through host_process.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

func main() {
	interp.StatFile = func(path string) (fs.FileInfo, error) { return stat(path, true) }
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 2 && args[0] == "--agentos-router" {
		return serve(args[1])
	}
	var opts []string
	command, fromStdin := false, false
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		args = args[1:]
		if strings.HasPrefix(a, "--") {
			// bash's long options: the ones that mean something here, and its refusal of the rest.
			switch a {
			case "--version":
				fmt.Print(versionText)
				return 0
			case "--help":
				fmt.Print(versionText + usageText)
				return 0
			case "--verbose":
				opts = append(opts, "-v")
			case "--rcfile", "--init-file":
				if len(args) > 0 {
					args = args[1:]
				}
			case "--posix", "--norc", "--noprofile", "--login", "--noediting", "--restricted":
			default:
				fmt.Fprintf(os.Stderr, "%s: %s: invalid option\n%s", interp.Name, a, usageText)
				return 2
			}
			continue
		}
		if a == "-O" || a == "+O" { // a shopt option, as bash -O nullglob
			if len(args) > 0 {
				mode := "-s"
				if a == "+O" {
					mode = "-u"
				}
				startShopts = append(startShopts, "shopt "+mode+" "+args[0])
				args = args[1:]
			}
			continue
		}
		if a == "-o" || a == "+o" {
			if len(args) > 0 {
				opts = append(opts, a, args[0])
				args = args[1:]
			}
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'c':
				command = true
			case 's':
				fromStdin = true
			case 'i', 'l':
			default:
				opts = append(opts, string(a[0])+string(f))
			}
		}
	}
	switch {
	case command:
		if len(args) == 0 {
			fmt.Fprintf(os.Stderr, "%s: -c: option requires an argument\n", interp.Name)
			return 2
		}
		script := args[0]
		if len(args) > 1 {
			interp.Name, args = args[1], args[2:]
		} else {
			args = nil
		}
		interp.StartFlag = "c"
		return runScript(script, "-c", os.Environ(), workingDir(), opts, args)
	case len(args) > 0 && !fromStdin:
		file := args[0]
		b, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %s: %s\n", interp.Name, file, interp.Strerror(err))
			return 127
		}
		interp.Name = file
		return runScript(string(b), "", os.Environ(), workingDir(), opts, args[1:])
	}
	interp.StartFlag = "s"
	runner, err := newRunner(os.Environ(), workingDir(), opts, args)
	if err != nil {
		return 2
	}
	return interactive(context.Background(), runner, os.Stdin)
}

// newRunner is a shell with the given environment, working directory, options and positional parameters.
func newRunner(env []string, dir string, opts, params []string) (*interp.Runner, error) {
	runner, err := interp.New(
		interp.StdIO(os.Stdin, os.Stdout, os.Stderr),
		interp.Env(expand.ListEnviron(env...)),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return runExternal }),
		interp.StatHandler(statFile),
		interp.AccessHandler(access),
		interp.Dir(dir),
		interp.Params(append(append(opts, "--"), params...)...),
	)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", interp.Name, err)
		return runner, err
	}
	runner.Reset()
	if !hasPath(env) {
		// bash's PATH when it starts without one (a shell variable, not exported)
		if f, err := syntax.NewParser().Parse(strings.NewReader("PATH=/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."), ""); err == nil {
			runner.Run(context.Background(), f.Stmts[0])
		}
	}
	runner.InheritFds(inherited)
	for _, cmd := range startShopts {
		if f, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err == nil {
			runner.Run(context.Background(), f.Stmts[0])
		}
	}
	return runner, nil
}

// hasPath reports whether env sets PATH.
func hasPath(env []string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			return true
		}
	}
	return false
}

// startShopts are the `shopt` commands of the shell's -O and +O options.
var startShopts []string

// inherited are the fds above 2 this process was started with, the same for every interpreter it makes.
var inherited = inheritedFds()

// runScript runs src as `sh -c` (from "-c") or `sh FILE` (from "") does, and returns its exit status.
func runScript(src, from string, env []string, dir string, opts, params []string) int {
	runner, err := newRunner(env, dir, opts, params)
	if err != nil {
		return 2
	}
	runner.CommandString = from == "-c"
	expand.Source = src // quoted by arithmetic errors, as bash quotes the expression
	// As bash, a line at a time: a syntax error ends the script after the lines before it have run.
	// The parser runs a line when it has read its newline.
	text := src
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	code := status(runner.RunScript(context.Background(), syntax.NewParser(), strings.NewReader(text), interp.Name, func(err error) {
		fmt.Fprint(os.Stderr, interp.SyntaxError(err, src, from))
	}))
	// Background jobs run in this process: they end with it, where bash's go on as processes of their own.
	// A trapped signal interrupts `wait` (status 128+N); its trap runs as the next wait starts.
	for status(runner.Run(context.Background(), waitForJobs.Stmts[0])) > 128 {
	}
	interp.ResetSignals()
	return code
}

var waitForJobs, _ = syntax.NewParser().Parse(strings.NewReader("wait"), "")

// serve is the exec router's shell (src/exec/router-shell.ts): it reads one command at a time from stdin,
// `CWD\0SCRIPT\0NAME=VALUE\0…\0\0`, and runs it as a fresh `sh -c SCRIPT` started in CWD with that
// environment would, while the kernel has switched its stdio to the command's. Then it reports the
// status by opening STATUS_DIR/STATUS, a path the kernel serves for this process only.
func serve(statusDir string) int {
	in := bufio.NewReader(os.Stdin)
	for {
		fields, err := readFrame(in)
		if err != nil {
			return 0
		}
		interp.Name, interp.StartFlag = "sh", "c"
		code := runScript(fields[1], "-c", fields[2:], fields[0], nil, nil)
		f, err := os.OpenFile(fmt.Sprintf("%s%d", statusDir, code), os.O_WRONLY, 0)
		if err != nil {
			return 1
		}
		f.Close()
	}
}

// readFrame reads NUL-terminated fields up to an empty one.
func readFrame(in *bufio.Reader) ([]string, error) {
	var fields []string
	for {
		field, err := in.ReadString(0)
		if err != nil {
			return nil, err
		}
		if field == "\x00" {
			if len(fields) < 2 {
				return nil, io.ErrUnexpectedEOF
			}
			return fields, nil
		}
		fields = append(fields, field[:len(field)-1])
	}
}

// interactive runs a script read from r statement by statement, each as soon as it has been read.
func interactive(ctx context.Context, runner *interp.Runner, r io.Reader) int {
	code := 0
	parser := syntax.NewParser()
	err := parser.Interactive(r, func(stmts []*syntax.Stmt) bool {
		if parser.Incomplete() {
			return true
		}
		for _, stmt := range stmts {
			code = status(runner.Run(ctx, stmt))
			if runner.Exited() {
				return false
			}
		}
		return true
	})
	if err != nil {
		fmt.Fprint(os.Stderr, interp.SyntaxError(err, "", ""))
		return 2
	}
	return code
}

// status is the exit status of a Run's result.
func status(err error) int {
	if err == nil {
		return 0
	}
	if code, ok := interp.IsExitStatus(err); ok {
		return int(code)
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", interp.Name, err)
	return 1
}

// workingDir is the process's working directory (guests/cwd/cwd.go moved there), not $PWD: os.Getwd
// would trust $PWD, and WASI gives no inode numbers to check it by.
func workingDir() string {
	if wd, err := syscall.Getwd(); err == nil {
		return wd
	}
	return "/"
}

// What `sh --version` says: the bash it follows first, in the shape scripts parse (`bash --version | head -1`
// has "version 5.2.15"), then what it really is.
const versionText = `bash (agentos-vm), compatible with GNU bash, version 5.2.15(1)-release (wasm32-unknown-wasip1)
mvdan.cc/sh v3.14.1 (BSD-3-Clause) with agentos-vm's changes, built for WebAssembly; not GNU bash itself.
`

const usageText = `Usage:	sh [long option] [option] ...
	sh [long option] [option] script-file ...
Long options:
	--help
	--init-file FILE (no effect)
	--login (no effect)
	--noediting (no effect)
	--noprofile (no effect)
	--norc (no effect)
	--posix (no effect)
	--rcfile FILE (no effect)
	--restricted (no effect)
	--verbose
	--version
Shell options:
	-c command or -s, then set options: -abefhkmnptuvxBCEHPT or -o option
	-O shopt_option, +O shopt_option
`
