import type { Limits } from "../limits.js";
import { kerr } from "./kernel-error.js";
import type { MemoryBudget } from "./memory-budget.js";
import {
  childrenOf,
  isLinked,
  MAX_FILE_BYTES,
  nodeCapacity,
  nodeSize,
  setCapacity,
  type Link,
  type MemNode,
  type Superblock,
} from "./memfs-core.js";

/**
 * Host memory of one directory entry besides its data, an estimate: memfs's Link and Node objects (about
 * 1.4 KiB measured for an empty file), plus the array of path components memfs keeps in every link (8 bytes
 * per component), which is what makes deep trees expensive: 50,000 files at depth 2,000 would hold 800 MiB
 * of such arrays.
 */
const ENTRY_BYTES = 1024;
const COMPONENT_BYTES = 8;
const entryCost = (link: Link): number => ENTRY_BYTES + COMPONENT_BYTES * link.steps.length;

interface Account {
  /** Data counted against maxFsBytes: a file's size (files are not sparse), a symlink's target length. */
  bytes: number;
  /** Memory taken from the budget for it: a file's buffer (its capacity), a symlink's target. */
  held: number;
  /** Open descriptions of the node: an unlinked file lives on until the last one is closed, as in POSIX. */
  opens: number;
}

/**
 * What the memory file system holds, with one owner. File data counts against limits.maxFsBytes, inodes
 * (files, directories, symlinks) against limits.maxFsInodes, and the host memory behind both — file
 * buffers as allocated, and an estimate per directory entry — against the VM's memory budget (holding
 * "files"). Every growth is checked here before memfs allocates anything, and everything is given back
 * when the inode is really gone: its last link removed and its last open description closed.
 */
export class FsQuota {
  private readonly nodes = new Map<MemNode, Account>();
  private dataBytes = 0;

  constructor(
    private readonly core: Superblock,
    private readonly limits: Pick<Limits, "maxFsBytes" | "maxFsInodes">,
    private readonly memory: MemoryBudget,
  ) {}

  /** Counts what the tree holds already (the VFS's first entries, made before it had a quota). */
  adopt(): void {
    const stack: Link[] = [this.core.root];
    this.account(this.core.root.getNode());
    while (stack.length > 0) {
      for (const [, child] of childrenOf(stack.pop()!)) {
        const node = child.getNode();
        this.account(node);
        this.take(entryCost(child));
        if (node.isDirectory()) stack.push(child);
        else {
          const account = this.accountOf(node);
          this.take(nodeCapacity(node));
          account.held = nodeCapacity(node);
          this.count(account, nodeSize(node));
        }
      }
    }
  }

  get bytes(): number {
    return this.dataBytes;
  }

  get inodes(): number {
    return this.nodes.size;
  }

  /** What the file system holds and may hold (df). */
  usage(): { bytes: number; maxBytes: number; inodes: number; maxInodes: number } {
    return { bytes: this.dataBytes, maxBytes: this.limits.maxFsBytes, inodes: this.nodes.size, maxInodes: this.limits.maxFsInodes };
  }

  /** File data the file system may still take (maxFsBytes less what it holds). */
  private dataRoom(): number {
    return Math.max(0, this.limits.maxFsBytes - this.dataBytes);
  }

  /** The largest size `node` can be given now: what maxFsBytes and the memory budget both leave. */
  limit(node: MemNode): number {
    const size = nodeSize(node);
    return Math.min(size + this.dataRoom(), Math.max(size, nodeCapacity(node) + this.memory.free), MAX_FILE_BYTES);
  }

  /** The largest content file `node` can be given in place of what it holds now (the API's writeFile). */
  replaceLimit(node: MemNode): number {
    const account = this.accountOf(node);
    return Math.min(this.dataRoom() + account.bytes, this.memory.free + account.held, MAX_FILE_BYTES);
  }

  /** Which limit stops a growth of `by` bytes, for error messages. */
  limitReached(by = 1): string {
    if (by > 0 && by > this.dataRoom()) return `maxFsBytes ${this.limits.maxFsBytes}`;
    return by > this.memory.free ? "maxVmMemoryBytes" : `a file holds at most ${MAX_FILE_BYTES} bytes`;
  }

  /**
   * ENOSPC unless `count` more inodes fit (one by default), with entries `depth` components deep and `data`
   * bytes of content (a symlink's target, the API's new file).
   */
  checkCreate(depth: number, syscall: string, path: string, data = 0, count = 1): void {
    if (this.nodes.size + count > this.limits.maxFsInodes)
      throw kerr("ENOSPC", { syscall, path, message: `no space left on device (maxFsInodes ${this.limits.maxFsInodes})` });
    if (data > this.dataRoom() || (ENTRY_BYTES + COMPONENT_BYTES * depth) * count + data > this.memory.free)
      throw kerr("ENOSPC", { syscall, path, message: `no space left on device (${this.limitReached(data)})` });
  }

  /** ENOSPC unless one more directory entry (a hard link) fits in the memory budget. */
  checkEntry(depth: number, syscall: string, path: string): void {
    if (ENTRY_BYTES + COMPONENT_BYTES * depth > this.memory.free)
      throw kerr("ENOSPC", { syscall, path, message: "no space left on device (maxVmMemoryBytes)" });
  }

  /** memfs created `link` and its node (after checkCreate). */
  created(link: Link): void {
    this.account(link.getNode());
    this.take(entryCost(link));
  }

  /** memfs added `link` to an existing node (after checkEntry). */
  linked(link: Link): void {
    this.take(entryCost(link));
  }

  /** memfs removed `link`; its node goes when nothing names it and nothing has it open. */
  unlinked(link: Link, node: MemNode): void {
    this.memory.give("files", entryCost(link));
    this.settle(node);
  }

  /**
   * A directory holding `entries` entries (itself included) moves `depthChange` components deeper or
   * shallower: memfs rewrites each of their component arrays. Throws ENOSPC, changing nothing, when the
   * memory budget cannot take the growth.
   */
  moving(entries: number, depthChange: number, syscall: string, path: string): void {
    const delta = entries * depthChange * COMPONENT_BYTES;
    if (delta > 0 && !this.memory.tryTake("files", delta))
      throw kerr("ENOSPC", { syscall, path, message: "no space left on device (maxVmMemoryBytes)" });
    if (delta < 0) this.memory.give("files", -delta);
  }

  /**
   * Makes file `node` `size` bytes long in the account and gives it a buffer that holds them, before memfs
   * writes or extends it; past limit(node) it is ENOSPC, changing nothing. A buffer that must grow gets half
   * as much again as asked for, within what the budget and the quota leave, so that appending copies each
   * byte about three times; that slack is host memory and is counted as such.
   */
  grow(node: MemNode, size: number, syscall: string, path: string): void {
    const account = this.accountOf(node);
    if (size > this.limit(node))
      throw kerr("ENOSPC", { syscall, path, message: `no space left on device (${this.limitReached(size - nodeSize(node))})` });
    const capacity = nodeCapacity(node);
    if (size > capacity) {
      const dataLeft = this.dataRoom() - Math.max(0, size - account.bytes);
      const memoryLeft = this.memory.free - (size - capacity);
      const slack = Math.max(0, Math.floor(Math.min(capacity / 2, dataLeft, memoryLeft / 2)));
      this.take(size + slack - capacity);
      account.held += size + slack - capacity;
      setCapacity(node, size + slack, this.limits.maxFsBytes);
    }
    this.count(account, size);
  }

  /**
   * After memfs shrank file `node` (ftruncate, O_TRUNC): its data goes back, and its buffer too when most
   * of it is unused — memfs keeps a large buffer for a small file.
   */
  shrunk(node: MemNode): void {
    const account = this.accountOf(node);
    const size = nodeSize(node);
    if (nodeCapacity(node) > size + Math.max(64, size / 2)) setCapacity(node, size, this.limits.maxFsBytes);
    this.memory.give("files", account.held - nodeCapacity(node));
    account.held = nodeCapacity(node);
    this.count(account, size);
  }

  /** Counts a symlink's target (after checkCreate with its length): data, and memory for the string. */
  target(node: MemNode, bytes: number): void {
    const account = this.accountOf(node);
    this.take(bytes);
    account.held += bytes;
    this.count(account, bytes);
  }

  opened(node: MemNode): void {
    this.accountOf(node).opens++;
  }

  closed(node: MemNode): void {
    const account = this.accountOf(node);
    if (account.opens <= 0) throw new Error("fs quota: a node closed more often than opened");
    account.opens--;
    this.settle(node);
  }

  private count(account: Account, bytes: number): void {
    this.dataBytes += bytes - account.bytes;
    account.bytes = bytes;
  }

  private settle(node: MemNode): void {
    const account = this.nodes.get(node);
    if (!account || account.opens > 0 || isLinked(this.core, node)) return;
    this.memory.give("files", account.held);
    this.dataBytes -= account.bytes;
    this.nodes.delete(node);
  }

  private account(node: MemNode): void {
    if (!this.nodes.has(node)) this.nodes.set(node, { bytes: 0, held: 0, opens: 0 });
  }

  private accountOf(node: MemNode): Account {
    const account = this.nodes.get(node);
    if (!account) throw new Error(`fs quota: inode ${node.ino} is not counted`);
    return account;
  }

  /** Takes what a check allowed a moment ago (the kernel is single-threaded: it still fits). */
  private take(n: number): void {
    if (!this.memory.tryTake("files", n)) throw new Error("fs quota: the memory budget refused what was checked");
  }
}
