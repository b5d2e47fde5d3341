package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// WASI's filestat has no permission bits; the kernel keeps real modes and offers them here (guest-abi §2).
//
//go:wasmimport host_fs path_mode
func pathMode(path *byte, pathLen uint32, follow uint32) uint32

// modeOf is path's st_mode as the kernel keeps it, or 0 when it does not exist.
func modeOf(path string, follow bool) uint32 {
	b := []byte(path)
	f := uint32(0)
	if follow {
		f = 1
	}
	return pathMode(ptr(b), uint32(len(b)), f)
}

// fileMode turns an st_mode into Go's file mode.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & 0o170000 {
	case 0o040000:
		mode |= fs.ModeDir
	case 0o120000:
		mode |= fs.ModeSymlink
	case 0o020000:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case 0o060000:
		mode |= fs.ModeDevice
	case 0o010000:
		mode |= fs.ModeNamedPipe
	case 0o140000:
		mode |= fs.ModeSocket
	}
	if m&0o4000 != 0 {
		mode |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		mode |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

type kernelInfo struct {
	fs.FileInfo
	mode fs.FileMode
}

func (i kernelInfo) Mode() fs.FileMode { return i.mode }
func (i kernelInfo) IsDir() bool       { return i.mode.IsDir() }

// statFile is the shell's stat (`test -f/-d/-x…`, `cd`, globbing): sizes and times from WASI, the type and
// permission bits from the kernel; a trailing slash on anything but a directory is ENOTDIR, as on Linux.
func statFile(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	info, err := stat(absolute(ctx, name), follow)
	if err == nil && strings.HasSuffix(name, "/") && !info.IsDir() && info.Mode()&fs.ModeSymlink == 0 {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOTDIR}
	}
	return info, err
}

// stat is os.Stat (or os.Lstat) of an absolute path, with the kernel's mode.
func stat(path string, follow bool) (fs.FileInfo, error) {
	var info fs.FileInfo
	var err error
	if follow {
		info, err = os.Stat(path)
	} else {
		info, err = os.Lstat(path)
	}
	if err != nil {
		return nil, err
	}
	if m := modeOf(path, follow); m != 0 {
		info = kernelInfo{info, fileMode(m)}
	}
	return info, nil
}

// access answers `test -r/-w/-x` and `cd`'s search permission from the kernel's mode bits; the VM has one
// user, who may do what anyone may (as the kernel decides for exec).
func access(ctx context.Context, name string, mode interp.AccessMode) error {
	m := modeOf(absolute(ctx, name), true)
	if m == 0 {
		return &fs.PathError{Op: "access", Path: name, Err: syscall.ENOENT}
	}
	bits := uint32(0)
	if mode&interp.AccessRead != 0 && m&0o444 == 0 {
		bits = 1
	}
	if mode&interp.AccessWrite != 0 && m&0o222 == 0 {
		bits = 1
	}
	if mode&interp.AccessExec != 0 && m&0o111 == 0 {
		bits = 1
	}
	if bits != 0 {
		return &fs.PathError{Op: "access", Path: name, Err: syscall.EACCES}
	}
	return nil
}

func absolute(ctx context.Context, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(interp.HandlerCtx(ctx).Dir, name)
}
