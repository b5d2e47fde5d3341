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
  ProcessInfo,
  SpawnOptions,
  Spawned,
  TypedDirent,
  VirtualStat,
} from "./agent-os.js";
export type { CommandContext, CommandFs, CommandHandler } from "./commands/command.js";
export { KernelError } from "./kernel/kernel-error.js";
