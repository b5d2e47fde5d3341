// A probe of the WASI preview1 calls a Rust program makes through std (and a few it can only make directly):
// one line per check, the same on every runtime that answers as Linux does. test/wasi-probe.test.ts runs it
// in the VM and under Node's own WASI (uvwasi) and compares the lines. It works in ./wasi-probe-rs.dir,
// which it removes again. Built with `rustc --target wasm32-wasip1 -O` (guests/wasi-probe/build.sh).
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::wasi::io::AsRawFd;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[link(wasm_import_module = "wasi_snapshot_preview1")]
extern "C" {
    fn fd_renumber(from: u32, to: u32) -> u16;
    fn fd_tell(fd: u32, offset: *mut u64) -> u16;
    fn fd_advise(fd: u32, offset: u64, len: u64, advice: u8) -> u16;
    fn fd_allocate(fd: u32, offset: u64, len: u64) -> u16;
    fn fd_datasync(fd: u32) -> u16;
    fn clock_res_get(id: u32, res: *mut u64) -> u16;
    fn fd_pread(fd: u32, iovs: *const Iovec, count: usize, offset: u64, nread: *mut usize) -> u16;
    fn fd_pwrite(fd: u32, iovs: *const Iovec, count: usize, offset: u64, nwritten: *mut usize) -> u16;
    fn path_symlink(old: *const u8, old_len: usize, fd: u32, new: *const u8, new_len: usize) -> u16;
}

#[repr(C)]
struct Iovec {
    buf: *const u8,
    len: usize,
}

/// fd_pread and fd_pwrite, as std's unstable FileExt::read_at/write_at make them.
fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut n = 0;
    let iov = Iovec { buf: buf.as_mut_ptr(), len: buf.len() };
    match unsafe { fd_pread(f.as_raw_fd() as u32, &iov, 1, offset, &mut n) } {
        0 => Ok(n),
        e => Err(io::Error::from_raw_os_error(e as i32)),
    }
}
fn write_at(f: &File, buf: &[u8], offset: u64) -> io::Result<usize> {
    let mut n = 0;
    let iov = Iovec { buf: buf.as_ptr(), len: buf.len() };
    match unsafe { fd_pwrite(f.as_raw_fd() as u32, &iov, 1, offset, &mut n) } {
        0 => Ok(n),
        e => Err(io::Error::from_raw_os_error(e as i32)),
    }
}

fn show<T: std::fmt::Debug>(name: &str, r: io::Result<T>) {
    match r {
        Ok(v) => println!("{name}: {v:?}"),
        Err(e) => println!("{name}: errno {}", e.raw_os_error().unwrap_or(-1)),
    }
}

fn errno(name: &str, e: u16) {
    println!("{name}: {}", if e == 0 { "ok".to_string() } else { format!("errno {e}") });
}

fn main() {
    let dir = "wasi-probe-rs.dir";
    show("create_dir", fs::create_dir(dir));
    let path = format!("{dir}/f");

    let mut f = OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&path).unwrap();
    show("write", f.write(b"hello world"));
    let fd = f.as_raw_fd() as u32;
    let mut pos = 0u64;
    errno("fd_tell", unsafe { fd_tell(fd, &mut pos) });
    println!("tell: {pos}");
    let mut buf = [0u8; 5];
    show("read_at", read_at(&f, &mut buf, 6));
    println!("read_at data: {}", String::from_utf8_lossy(&buf));
    show("position after read_at", f.stream_position());
    show("write_at", write_at(&f, b"HELLO", 0));
    show("position after write_at", f.stream_position());
    show("read_at bad offset", read_at(&f, &mut buf, 1 << 40));
    show("seek start", f.seek(SeekFrom::Start(0)));
    let mut s = String::new();
    show("read_to_string", f.read_to_string(&mut s));
    println!("contents: {s}");
    show("seek before start", f.seek(SeekFrom::Current(-100)));
    show("seek end", f.seek(SeekFrom::End(1)));

    errno("fd_allocate", unsafe { fd_allocate(fd, 0, 64) });
    show("size after allocate", f.metadata().map(|m| m.len()));
    errno("fd_allocate zero length", unsafe { fd_allocate(fd, 0, 0) });
    errno("fd_advise", unsafe { fd_advise(fd, 0, 10, 2) });
    errno("fd_advise bad advice", unsafe { fd_advise(fd, 0, 10, 9) });
    errno("fd_advise bad fd", unsafe { fd_advise(77, 0, 10, 0) });
    errno("fd_datasync", unsafe { fd_datasync(fd) });
    errno("fd_datasync bad fd", unsafe { fd_datasync(77) });
    show("sync_all", f.sync_all());
    show("set_len", f.set_len(3));
    show("len", f.metadata().map(|m| m.len()));

    let g = File::create(format!("{dir}/g")).unwrap();
    let gfd = g.as_raw_fd() as u32;
    errno("fd_renumber", unsafe { fd_renumber(fd, gfd) });
    std::mem::forget(f); // its fd is now gfd's
    let mut moved = [0u8; 3];
    show("read_at renumbered", read_at(&g, &mut moved, 0));
    println!("renumbered data: {}", String::from_utf8_lossy(&moved));
    errno("fd_renumber to a closed fd", unsafe { fd_renumber(gfd, 77) });
    errno("fd_renumber from a closed fd", unsafe { fd_renumber(fd, gfd) });
    drop(g);

    let mut a = OpenOptions::new().append(true).create(true).open(format!("{dir}/a")).unwrap();
    show("append write", a.write(b"abc"));
    show("append write_at", write_at(&a, b"Z", 0));
    show("append len", fs::metadata(format!("{dir}/a")).map(|m| m.len()));
    drop(a);

    let t = UNIX_EPOCH + Duration::new(1_600_000_000, 123_456_789);
    let h = File::options().write(true).open(format!("{dir}/a")).unwrap();
    show("set_modified", h.set_modified(t));
    let m = fs::metadata(format!("{dir}/a")).unwrap();
    show("modified", m.modified().map(|t| t.duration_since(UNIX_EPOCH).unwrap()));
    drop(h);

    let d = File::open(dir).unwrap();
    errno("path_symlink", unsafe { path_symlink(b"a".as_ptr(), 1, d.as_raw_fd() as u32, b"link".as_ptr(), 4) });
    drop(d);
    show("read_link", fs::read_link(format!("{dir}/link")));
    show("symlink_metadata is symlink", fs::symlink_metadata(format!("{dir}/link")).map(|m| m.file_type().is_symlink()));
    show("metadata through link is file", fs::metadata(format!("{dir}/link")).map(|m| m.is_file()));
    show("hard_link", fs::hard_link(format!("{dir}/a"), format!("{dir}/hard")));
    show("hard_link existing", fs::hard_link(format!("{dir}/a"), format!("{dir}/hard")));
    show("rename", fs::rename(format!("{dir}/hard"), format!("{dir}/renamed")));
    show("rename missing", fs::rename(format!("{dir}/hard"), format!("{dir}/x")));
    show("remove_dir non-empty", fs::remove_dir(dir));
    show("remove_file dir", fs::remove_file(dir));
    show("create_dir existing", fs::create_dir(dir));
    show("open missing", File::open(format!("{dir}/missing")).map(|_| ()));
    show("open dir for writing", OpenOptions::new().write(true).open(dir).map(|_| ()));
    show("read dir as file", fs::read(dir).map(|_| ()));
    let mut names: Vec<String> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    println!("read_dir: {names:?}");

    let mut res = 0u64;
    errno("clock_res_get monotonic", unsafe { clock_res_get(1, &mut res) });
    println!("monotonic resolution positive: {}", res > 0);
    errno("clock_res_get realtime", unsafe { clock_res_get(0, &mut res) });
    println!("realtime resolution at most 1 ms: {}", res > 0 && res <= 1_000_000);
    errno("clock_res_get bad clock", unsafe { clock_res_get(9, &mut res) });
    let before = std::time::Instant::now();
    std::thread::sleep(Duration::from_millis(2));
    println!("slept at least 2 ms: {}", before.elapsed() >= Duration::from_millis(2));
    println!("realtime after 2020: {}", SystemTime::now() > UNIX_EPOCH + Duration::from_secs(1_577_836_800));

    for name in ["f", "g", "a", "link", "renamed"] {
        let _ = fs::remove_file(format!("{dir}/{name}"));
    }
    show("remove_dir", fs::remove_dir(dir));
}
