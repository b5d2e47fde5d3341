// Set-up of every test file (vitest's `setupFiles`). Files may share one process and its module cache (the
// projects that do not isolate their files), so what each file needs per file is registered here, where it runs
// for each file, not when a shared module is first imported.
import { afterEach } from "vitest";
import { releaseTestVms } from "./test-vms.js";

afterEach(releaseTestVms);
