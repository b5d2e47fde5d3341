export { AgentOs } from "./agent-os.js";
export type {
  AgentOsOptions,
  BatchReadResult,
  BatchWriteEntry,
  BatchWriteResult,
  DirEntry,
  EntryType,
  ExecOptions,
  ExecResult,
  MountOptions,
  ProcessInfo,
  SignalLike,
  SpawnOptions,
  Spawned,
  TypedDirent,
  VirtualStat,
  VmStats,
} from "./agent-os.js";
export type { CommandContext, CommandFs, CommandHandler, CommandStat, WasmCommand } from "./commands/command.js";
export type { RouterStats } from "./exec/exec-router.js";
export type { ModuleStats } from "./modules/module-stats.js";
export { KernelError } from "./kernel/kernel-error.js";
export { Image, type ImageEntry } from "./kernel/image.js";
export type { MemoryUse } from "./kernel/memory-budget.js";
export type { OverlayDiff } from "./kernel/overlay.js";
export type { ListenerInfo } from "./kernel/socket-table.js";
export type { VmFetchInput } from "./net/vm-fetch.js";
export type { NetworkAllow, NetworkRequest, DenialReason } from "./net/policy.js";
export type { NetworkDenial, NetworkOptions, NetworkStats } from "./net/vm-network.js";
export type { ResolvedAddress } from "./net/resolver.js";
export { HOST_GATEWAY_ADDRESS, HOST_GATEWAY_NAME } from "./net/address-class.js";
export { DEFAULT_LIMITS, type Limits } from "./limits.js";
