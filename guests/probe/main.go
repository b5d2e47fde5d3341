// Command probe is a test guest for what programs with an event loop need from the runtime: NONBLOCK fds,
// poll_oneoff that waits for readiness, host_process.proc_pidfd, fds > 2 that stay the caller's after
// proc_spawn, and fds > 2 a child inherits (proc_spawn_fds, fd_prestat_get). Each subcommand prints a transcript that test/event-loop.test.ts compares exactly.
// Build: `pnpm build:guests` (guests/build.ts) writes guests/dist/probe.wasm.
package main

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// The runtime's imports, declared as in guest-abi §2 (and proc_pidfd, workers/host-imports.ts).
//
//go:wasmimport host_process proc_spawn
func procSpawn(argvPtr *byte, argvLen uint32, envpPtr *byte, envpLen uint32, stdinFd, stdoutFd, stderrFd uint32, cwdPtr *byte, cwdLen uint32, retPid *uint32) uint32

//go:wasmimport host_process proc_spawn_fds
func procSpawnFds(argvPtr *byte, argvLen uint32, envpPtr *byte, envpLen uint32, stdinFd, stdoutFd, stderrFd uint32, cwdPtr *byte, cwdLen uint32, fdsPtr *uint32, fdsCount uint32, retPid *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 fd_prestat_get
func fdPrestatGet(fd uint32, prestat *[2]uint32) uint32

//go:wasmimport wasi_snapshot_preview1 fd_prestat_dir_name
func fdPrestatDirName(fd uint32, buf *byte, bufLen uint32) uint32

//go:wasmimport host_process proc_waitpid
func procWaitpid(pid uint32, options uint32, retStatus *uint32) uint32

//go:wasmimport host_process fd_pipe
func fdPipe(retRead *uint32, retWrite *uint32) uint32

//go:wasmimport host_process fd_dup
func fdDup(fd uint32, retFd *uint32) uint32

//go:wasmimport host_process proc_pidfd
func procPidfd(pid uint32, retFd *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 poll_oneoff
func pollOneoff(in unsafe.Pointer, out unsafe.Pointer, nsubs uint32, nevents *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 fd_fdstat_get
func fdFdstatGet(fd uint32, stat unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 clock_time_get
func clockTimeGet(id uint32, precision uint64, time *uint64) uint32

const (
	devNull   = 0xFFFFFFFF
	wnohang   = 1
	realtime  = 0
	monotonic = 1
	fdRead    = 1
	fdWrite   = 2
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: probe stdin-and-timer|sleep|poll|nonblock|spawn-wait|keep-fd|prestat|spawn-fds CHILD:PARENT…|write-after MS TEXT")
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "stdin-and-timer":
		stdinAndTimer()
	case "sleep":
		sleeps(args)
	case "poll":
		polls()
	case "nonblock":
		nonblock()
	case "spawn-wait":
		spawnWait()
	case "keep-fd":
		keepFd()
	case "prestat":
		prestats()
	case "spawn-fds":
		spawnFds(args)
	case "write-after":
		ms, _ := strconv.Atoi(args[0])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		os.Stdout.WriteString(args[1] + "\n")
	default:
		fail("unknown subcommand " + os.Args[1])
	}
}

// stdinAndTimer reads lines from a non-blocking stdin in a goroutine (through Go's netpoller, i.e.
// poll_oneoff) while a timer runs: "timer fired" goes to stderr when it does, whatever stdin is doing.
func stdinAndTimer() {
	check(syscall.SetNonblock(0, true))
	in := os.NewFile(0, "stdin")
	lines := make(chan string)
	go func() {
		s := bufio.NewScanner(in)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	timer := time.NewTimer(20 * time.Millisecond)
	for {
		select {
		case <-timer.C:
			os.Stderr.WriteString("timer fired\n")
		case l, ok := <-lines:
			if !ok {
				say("eof")
				return
			}
			say("line", l)
		}
	}
}

// sleeps runs one goroutine per argument, each sleeping that many milliseconds, and prints the order in
// which they woke and whether each slept long enough.
func sleeps(args []string) {
	woke := make(chan string)
	for _, a := range args {
		go func(a string) {
			ms, _ := strconv.Atoi(a)
			t0 := time.Now()
			time.Sleep(time.Duration(ms) * time.Millisecond)
			woke <- a + "ms:" + tooEarly(t0, time.Duration(ms)*time.Millisecond)
		}(a)
	}
	var order []string
	for range args {
		order = append(order, <-woke)
	}
	say("woke", strings.Join(order, " "))
}

// polls calls poll_oneoff directly and prints what each call reported.
func polls() {
	r, w := pipe()
	t0 := time.Now()
	say("empty pipe, 30ms clock:", events(poll(fdSub(fdRead, r), clockSub(monotonic, ms(30), false)), "r", "clock"), tooEarly(t0, ms(30)))

	write(w, "xy")
	say("data:", events(poll(fdSub(fdRead, r), fdSub(fdWrite, w), clockSub(monotonic, ms(10000), false)), "r", "w", "clock"))

	t0 = time.Now()
	var mono uint64
	clockTimeGet(monotonic, 0, &mono)
	real := uint64(time.Now().UnixNano())
	two := []subscription{clockSub(realtime, time.Duration(real)+ms(20), true), clockSub(monotonic, time.Duration(mono)+ms(60), true)}
	first := poll(two...)
	// A loaded machine can stall the probe past 60 ms before the kernel looks; the monotonic clock is then
	// due as well, and reporting it is right. Reported before it was due, it stays in and fails the test.
	if time.Since(t0) >= ms(60) {
		var kept []event
		for _, e := range first {
			if get64(e[0:]) != 1 {
				kept = append(kept, e)
			}
		}
		first = kept
	}
	say("absolute clocks at 20ms and 60ms:", events(first, "real", "mono"), tooEarly(t0, ms(20)))
	say("then:", events(poll(two[1]), "mono"), tooEarly(t0, ms(60)))

	read(r, 2)
	check(syscall.SetNonblock(int(w), true))
	n, err := syscall.Write(int(w), make([]byte, 100000))
	_, err2 := syscall.Write(int(w), []byte("z"))
	say("non-blocking write of 100000 bytes:", strconv.Itoa(n), errname(err), "then", errname(err2))
	t0 = time.Now()
	say("full pipe, 30ms clock:", events(poll(fdSub(fdWrite, w), clockSub(monotonic, ms(30), false)), "w", "clock"), tooEarly(t0, ms(30)))
	read(r, 1000)
	say("after a read:", events(poll(fdSub(fdWrite, w)), "w"))
	check(syscall.SetNonblock(int(r), true))
	drained := 0
	for {
		n, err := syscall.Read(int(r), make([]byte, 8192))
		if err != nil {
			say("drained", strconv.Itoa(drained), "bytes, then", errname(err))
			break
		}
		drained += n
	}

	pid := spawn([]string{"probe", "write-after", "50", "hi"}, devNull, w, 2)
	say("woken by a child's write:", events(poll(fdSub(fdRead, r)), "r"), strconv.Quote(read(r, 100)))
	var pidfd uint32
	say("pidfd:", errno(procPidfd(pid, &pidfd)))
	say("child exit:", events(poll(fdSub(fdRead, pidfd)), "pidfd"), "waitpid", wait(pid, wnohang))

	syscall.Close(int(w))
	say("no writer left:", events(poll(fdSub(fdRead, r)), "r"))
	r2, w2 := pipe()
	syscall.Close(int(r2))
	say("no reader left:", events(poll(fdSub(fdWrite, w2)), "w"))
	say("bad fd:", events(poll(fdSub(fdRead, 999)), "999"))
}

// nonblock shows that NONBLOCK is a flag of one fd: reported by fd_fdstat_get (Go's syscall package sets
// it on fds 0-2 at start), not shared by a dup nor by a child given the fd.
func nonblock() {
	say("stdin:", flags(0))
	r, w := pipe()
	say("pipe read end:", flags(r))
	check(syscall.SetNonblock(int(r), true))
	say("after SetNonblock:", flags(r))
	_, err := syscall.Read(int(r), make([]byte, 10))
	say("read of an empty pipe:", errname(err))
	var d uint32
	fdDup(r, &d)
	say("its dup:", flags(d))
	write(w, "abc")
	say("read", strconv.Quote(read(r, 10)))

	pid := spawn([]string{"cat"}, r, 1, 2)
	syscall.Close(int(r))
	syscall.Close(int(d))
	// Lets cat read the empty pipe first: were the fd non-blocking for it too, it would fail with EAGAIN.
	time.Sleep(50 * time.Millisecond)
	write(w, "cat read this\n")
	syscall.Close(int(w))
	say("cat:", wait(pid, 0))

	r, w = pipe()
	check(syscall.SetNonblock(int(r), true))
	syscall.Close(int(w))
	n, err := syscall.Read(int(r), make([]byte, 10))
	say("no writer left: read", strconv.Itoa(n), "bytes", errname(err))
}

// spawnWait waits for a child through a pidfd in Go's netpoller while a goroutine feeds the child.
func spawnWait() {
	r, w := pipe()
	pid := spawn([]string{"cat"}, r, 1, 2)
	syscall.Close(int(r))
	var pidfd uint32
	if e := procPidfd(pid, &pidfd); e != 0 {
		fail("proc_pidfd: " + errno(e))
	}
	check(syscall.SetNonblock(int(pidfd), true))
	f := os.NewFile(uintptr(pidfd), "pidfd")
	// Runs only while the read below waits in the netpoller: were the process blocked in that read,
	// cat would never get its input and never exit.
	go func() {
		write(w, "hello from a goroutine\n")
		syscall.Close(int(w))
	}()
	n, err := f.Read(make([]byte, 1))
	if err != io.EOF {
		fail("pidfd read: " + strconv.Itoa(n) + " " + errname(err))
	}
	say("pidfd reached end of file; waitpid without waiting:", wait(pid, wnohang))
	var again uint32
	say("pidfd of a collected child:", errno(procPidfd(pid, &again)), "of a stranger:", errno(procPidfd(99999, &again)))
}

// keepFd hands a dup of stdout (an fd > 2) to a child, then keeps using it.
func keepFd() {
	var d uint32
	if e := fdDup(1, &d); e != 0 || d <= 2 {
		fail("fd_dup: " + errno(e))
	}
	wait(spawn([]string{"echo", "child wrote to the fd"}, devNull, d, 2), 0)
	if _, err := syscall.Write(int(d), []byte("parent still writes to it\n")); err != nil {
		say("parent: write:", errname(err))
	}
}

// prestats prints what fd_prestat_get says of fds 3, 4, … up to the first EBADF, as a libc scans them for
// its preopens, and whether each fd is open.
func prestats() {
	for fd := uint32(3); ; fd++ {
		var prestat [2]uint32
		e := fdPrestatGet(fd, &prestat)
		if e != 0 {
			say(strconv.Itoa(int(fd)), errno(e))
			return
		}
		open := "open"
		if fdFdstatGet(fd, unsafe.Pointer(&[24]byte{})) != 0 {
			open = "closed"
		}
		tag := uint8(prestat[0])
		if tag != 0 {
			say(strconv.Itoa(int(fd)), "tag", strconv.Itoa(int(tag)), open)
			continue
		}
		name := make([]byte, prestat[1])
		if e := fdPrestatDirName(fd, &name[0], uint32(len(name))); e != 0 {
			fail("fd_prestat_dir_name: " + errno(e))
		}
		say(strconv.Itoa(int(fd)), "dir", string(name), open)
	}
}

// spawnFds runs `probe prestat` with the fds CHILD:PARENT given (proc_spawn_fds) and prints its errno.
func spawnFds(args []string) {
	var pairs []uint32
	for _, arg := range args {
		child, parent, _ := strings.Cut(arg, ":")
		c, _ := strconv.Atoi(child)
		p, _ := strconv.Atoi(parent)
		pairs = append(pairs, uint32(c), uint32(p))
	}
	a := []byte("probe\x00prestat\x00")
	e := []byte("X=1\x00")
	var pid uint32
	if err := procSpawnFds(&a[0], uint32(len(a)), &e[0], uint32(len(e)), 0, 1, 2, &a[0], 0, &pairs[0], uint32(len(pairs)/2), &pid); err != 0 {
		say("proc_spawn_fds:", errno(err))
		return
	}
	say("child", wait(pid, 0))
}

// ---- helpers ----

type subscription [48]byte
type event [32]byte

func clockSub(clock uint32, timeout time.Duration, absolute bool) subscription {
	var s subscription
	s[8] = 0 // EVENTTYPE_CLOCK
	put32(s[16:], clock)
	put64(s[24:], uint64(timeout))
	if absolute {
		s[40] = 1
	}
	return s
}

func fdSub(typ uint8, fd uint32) subscription {
	var s subscription
	s[8] = typ
	put32(s[16:], fd)
	return s
}

// poll numbers the subscriptions (userdata) and returns the events.
func poll(subs ...subscription) []event {
	for i := range subs {
		put64(subs[i][0:], uint64(i))
	}
	evs := make([]event, len(subs))
	var n uint32
	if e := pollOneoff(unsafe.Pointer(&subs[0]), unsafe.Pointer(&evs[0]), uint32(len(subs)), &n); e != 0 {
		fail("poll_oneoff: " + errno(e))
	}
	return evs[:n]
}

// events describes events by their subscriptions' names: "r(2 bytes)", "w hangup", "999 error EBADF".
func events(evs []event, names ...string) string {
	var out []string
	for _, e := range evs {
		s := names[get64(e[0:])]
		if e[10] == fdRead && get64(e[16:]) > 0 {
			s += "(" + strconv.FormatUint(get64(e[16:]), 10) + " bytes)"
		}
		if e[24]&1 != 0 {
			s += " hangup"
		}
		if errn := uint32(e[8]) | uint32(e[9])<<8; errn != 0 {
			s += " error " + errno(errn)
		}
		out = append(out, s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func tooEarly(t0 time.Time, d time.Duration) string {
	if time.Since(t0) < d {
		return "EARLY"
	}
	return "on time"
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func spawn(argv []string, stdin, stdout, stderr uint32) uint32 {
	var a, e []byte
	for _, s := range argv {
		a = append(append(a, s...), 0)
	}
	for _, s := range os.Environ() {
		e = append(append(e, s...), 0)
	}
	var pid uint32
	if err := procSpawn(&a[0], uint32(len(a)), &e[0], uint32(len(e)), stdin, stdout, stderr, &a[0], 0, &pid); err != 0 {
		fail("proc_spawn " + argv[0] + ": " + errno(err))
	}
	return pid
}

// wait collects a child: "exited N", or the errno.
func wait(pid uint32, options uint32) string {
	var status uint32
	if e := procWaitpid(pid, options, &status); e != 0 {
		return errno(e)
	}
	return "exited " + strconv.Itoa(int(status>>8&0xff))
}

func pipe() (uint32, uint32) {
	var r, w uint32
	if e := fdPipe(&r, &w); e != 0 {
		fail("fd_pipe: " + errno(e))
	}
	return r, w
}

func flags(fd uint32) string {
	var stat [24]byte
	if e := fdFdstatGet(fd, unsafe.Pointer(&stat[0])); e != 0 {
		return errno(e)
	}
	if stat[2]&4 != 0 { // FDFLAG_NONBLOCK
		return "non-blocking"
	}
	return "blocking"
}

func read(fd uint32, n int) string {
	buf := make([]byte, n)
	got, err := syscall.Read(int(fd), buf)
	check(err)
	return string(buf[:got])
}

func write(fd uint32, s string) {
	_, err := syscall.Write(int(fd), []byte(s))
	check(err)
}

func errno(e uint32) string {
	switch e {
	case 0:
		return "ok"
	case 6:
		return "EAGAIN"
	case 8:
		return "EBADF"
	case 10:
		return "ECHILD"
	case 71:
		return "ESRCH"
	}
	return "errno " + strconv.Itoa(int(e))
}

func errname(err error) string {
	if err == nil {
		return "ok"
	}
	if e, ok := err.(syscall.Errno); ok {
		return errno(uint32(e))
	}
	return err.Error()
}

func put32(b []byte, v uint32) {
	for i := 0; i < 4; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func put64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func get64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func say(parts ...string) { os.Stdout.WriteString(strings.Join(parts, " ") + "\n") }

func check(err error) {
	if err != nil {
		fail(errname(err))
	}
}

func fail(msg string) {
	os.Stderr.WriteString("probe: " + msg + "\n")
	os.Exit(1)
}
