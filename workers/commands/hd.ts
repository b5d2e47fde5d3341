import hexdump from "./hexdump.js";

// util-linux installs `hd` as hexdump with -C for its default format (hexdump.ts picks it by argv[0]).
export default hexdump;
