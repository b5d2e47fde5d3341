package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// runExternal runs a command that is neither a function nor a builtin as a child process of the kernel.
func runExternal(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	var io stdio
	defer io.closeOurs()
	in := io.reader(hc.Stdin)
	out := io.writer(hc.Stdout)
	errOut := io.writer(hc.Stderr)
	fds := io.above2(hc.Fds())
	env := environ(hc.Env)
	pid, err := startProcess(hc, func() (uint32, error) { return spawn(args, env, hc.Dir, in, out, errOut, fds) })
	io.closeOurs() // the child holds its own references now; the pumps see EOF when it has gone
	if err == nil {
		hc.Spawned(pid)
	}
	hc.Started() // the pipeline's next stage may start
	if err != nil {
		io.pumps.Wait()
		if errors.Is(err, interp.ErrForkFailed) {
			return err
		}
		return notRun(hc, args[0], err)
	}
	status, err := wait(pid)
	hc.Reaped(pid) // a background job's `kill` no longer signals it
	io.pumps.Wait()
	if err != nil {
		return err
	}
	if sig := status & 0x7f; sig != 0 {
		return interp.ExitStatus(128 + uint8(sig))
	}
	if code := uint8(status >> 8); code != 0 {
		return interp.ExitStatus(code)
	}
	return nil
}

// forkWaits are how long a spawn that failed with EAGAIN (the VM runs as many processes as it may) waits
// before each new try, as bash's make_child sleeps 1, 2, 4 and 8 seconds between forks, each after its
// "fork: retry" line. Here a wait ends as soon as a process exits and there is room (proc_roomfd).
var forkWaits = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}

// startProcess starts the command with `try`, trying again for want of room as bash does; when there is
// still none, it says so as bash does and returns interp.ErrForkFailed (the pipeline's processes are
// ended). A stage of a pipeline another stage of which could not start does not start either.
func startProcess(hc interp.HandlerContext, try func() (uint32, error)) (uint32, error) {
	if hc.PipelineFailed() {
		return 0, hc.ForkFailed()
	}
	pid, err := try()
	stderr := hc.ShellStderr()
	for _, pause := range forkWaits {
		if err != syscall.EAGAIN {
			return pid, err
		}
		fmt.Fprintf(stderr, "%s: fork: retry: %s\n", interp.Name, interp.Strerror(err))
		deadline := time.Now().Add(pause)
		for err == syscall.EAGAIN && time.Now().Before(deadline) {
			waitForRoom(deadline)
			pid, err = try()
		}
	}
	if err != syscall.EAGAIN {
		return pid, err
	}
	fmt.Fprintf(stderr, "%s: fork: %s\n", interp.Name, interp.Strerror(err))
	return 0, hc.ForkFailed()
}

// notRun says why a command could not be started, in bash's words, with bash's status: 127 when there is
// no such program, 126 when it cannot be run.
func notRun(hc interp.HandlerContext, name string, err error) error {
	status := uint8(126)
	if err == syscall.ENOENT {
		status = 127
	}
	why := spawnError()
	if why == "" {
		why = name + ": " + interp.Strerror(err)
	}
	fmt.Fprintf(hc.Stderr, "%s: %s\n", interp.Where(hc.Pos), why)
	return interp.ExitStatus(status)
}

// environ is what a child gets: the exported variables, and PWD, which bash exports whether or not it came
// in the environment. Each yields a name again where a subshell or function changed or unset it: the last
// word wins.
func environ(env expand.Environ) []string {
	values := map[string]string{}
	var names []string
	env.Each(func(name string, vr expand.Variable) bool {
		if _, seen := values[name]; !seen {
			names = append(names, name)
		}
		if (vr.Exported || name == "PWD") && vr.IsSet() && vr.Kind == expand.String {
			values[name] = name + "=" + vr.String()
		} else {
			values[name] = ""
		}
		return true
	})
	list := make([]string, 0, len(names))
	for _, name := range names {
		if kv := values[name]; kv != "" {
			list = append(list, kv)
		}
	}
	return list
}

// stdio hands a child the fds of the shell's current stdin, stdout and stderr. A reader or writer that is
// not a file of the kernel (a command substitution's buffer, a builtin's pipe) gets a kernel pipe and a
// pump goroutine.
type stdio struct {
	ours  []*os.File
	pumps sync.WaitGroup
}

func (s *stdio) closeOurs() {
	for _, f := range s.ours {
		f.Close()
	}
	s.ours = nil
}

// above2 is the shell's fds above 2 as proc_spawn_fds takes them: pairs (child's fd, this process's fd),
// the same numbers the shell's redirections gave them. One that writes nowhere (a copy of a closed
// stdout) is left out, as closed.
func (s *stdio) above2(fds map[int]any) []uint32 {
	var pairs []uint32
	for n, v := range fds {
		var fd uint32
		if w, ok := v.(io.Writer); ok {
			fd = s.writer(w)
		} else if r, ok := v.(io.Reader); ok {
			fd = s.reader(r)
		} else {
			continue
		}
		if fd != devNull {
			pairs = append(pairs, uint32(n), fd)
		}
	}
	return pairs
}

func (s *stdio) reader(r io.Reader) uint32 {
	if f, ok := r.(*os.File); ok {
		if f == nil {
			return devNull
		}
		return interp.FileFd(f)
	}
	if r == nil {
		return devNull
	}
	pr, pw, err := interp.NewPipe()
	if err != nil {
		return devNull
	}
	s.ours = append(s.ours, pr)
	go func() {
		io.Copy(pw, r)
		pw.Close()
	}()
	return interp.FileFd(pr)
}

func (s *stdio) writer(w io.Writer) uint32 {
	if f, ok := w.(interface{ OSFile() *os.File }); ok {
		w = f.OSFile() // a pipeline stage's writer
	}
	if f, ok := w.(*os.File); ok && f != nil {
		return interp.FileFd(f)
	}
	if w == nil || w == io.Discard {
		return devNull
	}
	pr, pw, err := interp.NewPipe()
	if err != nil {
		return devNull
	}
	s.ours = append(s.ours, pw)
	s.pumps.Add(1)
	go func() {
		defer s.pumps.Done()
		io.Copy(w, pr)
		pr.Close()
	}()
	return interp.FileFd(pw)
}
