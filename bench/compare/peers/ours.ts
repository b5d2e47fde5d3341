import { AgentOs } from "../../../src/index.js";
import type { Peer } from "../peer.js";

const root = "/home/user/bench";

const peer: Peer = {
  name: "ours",
  root,
  async create(options = {}) {
    const vm = await AgentOs.create({
      mounts: options.mountHostDir ? [{ path: `${root}/mnt`, hostDir: options.mountHostDir, readOnly: true }] : [],
    });
    await vm.mkdir(root, { recursive: true });
    return {
      exec: (command) => vm.exec(command, { cwd: root }),
      async writeFile(path, data) {
        const [r] = await vm.writeFiles([{ path, content: data }]);
        if (!r?.success) throw new Error(`${path}: ${r?.error}`);
      },
      readFile: (path) => vm.readFile(path),
      stat: (path) => vm.stat(path),
      readdir: (path) => vm.readdir(path),
      dispose: () => vm.dispose(),
    };
  },
};
export default peer;
