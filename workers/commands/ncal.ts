/** ncal: cal (workers/commands/cal.ts), which prints ncal's layout when argv[0] is ncal. */
export { default } from "./cal.js";
