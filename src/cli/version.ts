/** The package's version, from its package.json. */
import { PACKAGE_JSON } from "../util/package-dir.js";

export function packageVersion(): string {
  return PACKAGE_JSON.version ?? "unknown";
}
