// Added to the main package of Go guests that keep their working directory (guests/build.ts), the Go counterpart of
// guests/cwd/cwd.rs. Go's wasip1 port takes its working directory from $PWD, which the kernel does not
// promise; this init, which runs before main, moves the process to the working directory the
// kernel keeps for it (`host_process.proc_getcwd`). Go then resolves relative paths itself and hands the
// kernel absolute ones: the registry marks the binary `keepsCwd`, and the kernel takes its paths as they are.
package main

import "syscall"

//go:wasmimport host_process proc_getcwd
func procGetcwd(buf *byte, bufLen uint32, retLen *uint32) uint32

func init() {
	var buf [4096]byte
	var n uint32
	// A failure leaves the process where $PWD (or else `/`) put it.
	if procGetcwd(&buf[0], uint32(len(buf)), &n) == 0 && n > 0 && n <= uint32(len(buf)) {
		_ = syscall.Chdir(string(buf[:n]))
	}
}
