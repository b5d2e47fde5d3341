//! Linked into every Rust guest built in guests/ (an extra object given to the linker, guests/build.ts).
//! wasi-libc starts each program in `/`; this constructor, which wasi-libc runs before `main`, moves it
//! to the working directory the kernel keeps for the process (`host_process.proc_getcwd`). wasi-libc then
//! resolves relative paths itself and hands the kernel absolute ones: the registry marks these binaries
//! `keepsCwd`, and the kernel takes their paths as they are.
#![no_std]

use core::ffi::c_char;

#[link(wasm_import_module = "host_process")]
unsafe extern "C" {
    fn proc_getcwd(buf: *mut u8, buf_len: usize, ret_len: *mut usize) -> u32;
}

unsafe extern "C" {
    fn chdir(path: *const c_char) -> i32;
}

extern "C" fn enter_working_directory() {
    let mut buf = [0u8; 4096];
    let mut len = 0usize;
    // SAFETY: the kernel writes at most `buf_len` bytes into `buf` and their count into `len`.
    let errno = unsafe { proc_getcwd(buf.as_mut_ptr(), buf.len() - 1, &mut len) };
    if errno == 0 && len < buf.len() {
        buf[len] = 0;
        // SAFETY: `buf` is NUL-terminated. A failure leaves the process in `/`, as without this.
        unsafe { chdir(buf.as_ptr().cast()) };
    }
}

#[used]
#[unsafe(link_section = ".init_array")]
static ENTER_WORKING_DIRECTORY: extern "C" fn() = enter_working_directory;
