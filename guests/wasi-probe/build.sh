#!/bin/sh
# Rebuilds the probes of test/wasi-probe.test.ts, test/wasi-posix.test.ts, test/libposix.test.ts and test/libposix-net.test.ts (the built files are committed, so the tests need neither
# toolchain). C: Debian 12's clang-19 and wasi-libc 0.0~git20220510 (apt-get install clang-19 lld-19 wasi-libc
# libclang-rt-19-dev-wasm32). Rust: rustc 1.95 with the wasm32-wasip1 target.
set -e
cd "$(dirname "$0")"
clang-19 --target=wasm32-wasi -O2 -nostdlibinc -isystem /usr/include/wasm32-wasi -Wl,--strip-all -o probe-c.wasm probe.c
clang-19 --target=wasm32-wasi -O2 -nostdlibinc -isystem /usr/include/wasm32-wasi -Wl,--strip-all -o posix-probe.wasm posix.c
clang-19 --target=wasm32-wasi -O2 -nostdlibinc -isystem /usr/include/wasm32-wasi -Wl,--strip-all -o sock-probe.wasm sock.c
# guests/libposix, the C guests' POSIX layer, linked as guests/c.ts links it (test/libposix.test.ts).
L=../libposix
clang-19 --target=wasm32-wasi -O2 -nostdlibinc -isystem $L/include -isystem /usr/include/wasm32-wasi -include agentos_posix.h \
  -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID \
  -Wl,--strip-all -Wl,--wrap=stat,--wrap=lstat,--wrap=fstat,--wrap=open -Wl,-z,stack-size=8388608 -Wl,--stack-first \
  -o libposix-probe.wasm libposix.c $L/posix.c $L/agentos_cwd.c -lwasi-emulated-signal -lwasi-emulated-mman -lwasi-emulated-process-clocks
clang-19 --target=wasm32-wasi -O2 -nostdlibinc -isystem $L/include -isystem /usr/include/wasm32-wasi -include agentos_posix.h \
  -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID \
  -Wl,--strip-all -Wl,-z,stack-size=8388608 -Wl,--stack-first \
  -o net-probe.wasm net.c $L/socket.c $L/netdb.c -lwasi-emulated-signal -lwasi-emulated-mman -lwasi-emulated-process-clocks
rustc --edition 2021 --target wasm32-wasip1 -O -C strip=symbols -o probe-rs.wasm probe.rs
