/**
 * What the project's own commands (TypeScript implementations, not builds of the programs they imitate)
 * answer to --version. The first line keeps the shape scripts parse (`tar --version | head -1`): the
 * program's name first and a version number, here agentos-vm's; then the program and version whose
 * command line it follows, so nobody mistakes it for GNU's (or util-linux's, …) code.
 */

/** agentos-vm's version (package.json; test/service/archive.test.ts checks they agree). */
export const AGENTOS_VERSION = "0.1.0";

/** `tar (agentos-vm) 0.1.0, compatible with GNU tar 1.34` and a line saying what it is. */
export function versionText(tool: string, compatibleWith: string): string {
  return `${tool} (agentos-vm) ${AGENTOS_VERSION}, compatible with ${compatibleWith}\nA TypeScript implementation in agentos-vm (MIT licence), not ${compatibleWith} itself.\n`;
}
