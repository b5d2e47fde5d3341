package main

import (
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// The runtime's process imports (guest-abi §2; proc_pidfd in workers/host-imports.ts).
//
//go:wasmimport host_process proc_spawn
func procSpawn(argvPtr *byte, argvLen uint32, envpPtr *byte, envpLen uint32, stdinFd, stdoutFd, stderrFd uint32, cwdPtr *byte, cwdLen uint32, retPid *uint32) uint32

//go:wasmimport host_process proc_spawn_fds
func procSpawnFds(argvPtr *byte, argvLen uint32, envpPtr *byte, envpLen uint32, stdinFd, stdoutFd, stderrFd uint32, cwdPtr *byte, cwdLen uint32, fdsPtr *uint32, fdsCount uint32, retPid *uint32) uint32

//go:wasmimport wasi_snapshot_preview1 fd_prestat_get
func fdPrestatGet(fd uint32, prestat *[2]uint32) uint32

//go:wasmimport host_process proc_waitpid
func procWaitpid(pid uint32, options uint32, retStatus *uint32) uint32

//go:wasmimport host_process proc_pidfd
func procPidfd(pid uint32, retFd *uint32) uint32

//go:wasmimport host_process proc_roomfd
func procRoomfd(retFd *uint32) uint32

//go:wasmimport host_process proc_spawn_error
func procSpawnError(buf *byte, bufLen uint32, retLen *uint32) uint32

// devNull as a stdio fd of proc_spawn.
const devNull = 0xFFFFFFFF

func errnoErr(e uint32) error {
	if e == 0 {
		return nil
	}
	return syscall.Errno(e)
}

// nul joins strings, each followed by a NUL, as proc_spawn takes argv and envp.
func nul(list []string) []byte {
	var b []byte
	for _, s := range list {
		b = append(b, s...)
		b = append(b, 0)
	}
	return b
}

func ptr(b []byte) *byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.SliceData(b)
}

// spawn starts argv as a child with the given fds of this process as its stdio, and `fds`, pairs (child's
// fd, this process's fd), as its fds above 2.
func spawn(argv, env []string, dir string, stdin, stdout, stderr uint32, fds []uint32) (uint32, error) {
	a, e, d := nul(argv), nul(env), []byte(dir)
	var pid uint32
	var errno uint32
	if len(fds) == 0 {
		errno = procSpawn(ptr(a), uint32(len(a)), ptr(e), uint32(len(e)), stdin, stdout, stderr, ptr(d), uint32(len(d)), &pid)
	} else {
		errno = procSpawnFds(ptr(a), uint32(len(a)), ptr(e), uint32(len(e)), stdin, stdout, stderr, ptr(d), uint32(len(d)), &fds[0], uint32(len(fds)/2), &pid)
	}
	return pid, errnoErr(errno)
}

// inheritedFds are the fds above 2 the shell was started with (`sh script 3>f`, `exec 3>f; sh -c …`): the
// fds below its root preopen, which fd_prestat_get answers as not a directory (tag 1). They are made
// non-blocking, so that a read waits in Go's poller and the shell's other goroutines go on.
func inheritedFds() map[int]any {
	fds := map[int]any{}
	for fd := uint32(3); ; fd++ {
		var prestat [2]uint32 // u8 tag, then u32 name length
		if fdPrestatGet(fd, &prestat) != 0 || uint8(prestat[0]) == 0 {
			break // the root preopen, after the inherited fds
		}
		if syscall.SetNonblock(int(fd), true) != nil {
			continue // a number closed in the parent's table
		}
		fds[int(fd)] = os.NewFile(uintptr(fd), "/dev/fd/"+strconv.Itoa(int(fd)))
	}
	return fds
}

// spawnError is why the last spawn could not exec its program, as bash says it after its name
// (`./x.sh: Permission denied`), or "" when the kernel has no such reason.
func spawnError() string {
	var buf [4096]byte
	var n uint32
	if procSpawnError(&buf[0], uint32(len(buf)), &n) != 0 {
		return ""
	}
	return string(buf[:n])
}

// waitForRoom returns once the VM could start a process, or at the deadline. It waits on a proc_roomfd
// through Go's poller, so the shell's other goroutines (the other stages of a pipeline, pumps) go on
// meanwhile; without one (too many open files) it sleeps until the deadline, as bash would.
func waitForRoom(deadline time.Time) {
	var fd uint32
	if procRoomfd(&fd) != 0 {
		time.Sleep(time.Until(deadline))
		return
	}
	if syscall.SetNonblock(int(fd), true) != nil {
		syscall.Close(int(fd))
		time.Sleep(time.Until(deadline))
		return
	}
	f := os.NewFile(uintptr(fd), "roomfd") // non-blocking already, so that Go's poller waits on it
	defer f.Close()
	if f.SetReadDeadline(deadline) != nil {
		time.Sleep(time.Until(deadline))
		return
	}
	var b [1]byte
	f.Read(b[:]) // end of file once there is room; ErrDeadlineExceeded at the deadline
}

// wait ends when child pid has exited and returns its wait status. It waits on the child's pidfd through
// Go's poller, so the shell's other goroutines (the other stages of a pipeline, pumps) go on meanwhile.
func wait(pid uint32) (uint32, error) {
	var fd uint32
	if err := errnoErr(procPidfd(pid, &fd)); err != nil {
		return 0, err
	}
	if err := syscall.SetNonblock(int(fd), true); err != nil {
		return 0, err
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	var b [1]byte
	f.Read(b[:]) // end of file once the child has exited
	f.Close()
	var status uint32
	err := errnoErr(procWaitpid(pid, 0, &status))
	return status, err
}
