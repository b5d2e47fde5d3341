import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { Output, type System } from "../system.js";
import { versionText } from "../../src/gnu/version.js";

// vim's xxd (2022-01-14): a hex dump (default, -b bits, -e little-endian, -p plain, -i C include) and
// back (-r, -r -p), with its option syntax (`-c8`, `-c 8`, `-cols 8`, `--len 4`: any prefix after the
// letter), its messages and exit statuses (2: input, 3: output, 4: seek, 5: seek backwards).

const USAGE = `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
`;

const enum Hex {
  NORMAL,
  POSTSCRIPT,
  CINCLUDE,
  BITS,
  LITTLEENDIAN,
}

const COLS = 256;

const ETOA64 = [
  0o040, 0o240, 0o241, 0o242, 0o243, 0o244, 0o245, 0o246, 0o247, 0o250, 0o325, 0o056, 0o074, 0o050, 0o053, 0o174, 0o046, 0o251, 0o252, 0o253, 0o254, 0o255,
  0o256, 0o257, 0o260, 0o261, 0o041, 0o044, 0o052, 0o051, 0o073, 0o176, 0o055, 0o057, 0o262, 0o263, 0o264, 0o265, 0o266, 0o267, 0o270, 0o271, 0o313, 0o054,
  0o045, 0o137, 0o076, 0o077, 0o272, 0o273, 0o274, 0o275, 0o276, 0o277, 0o300, 0o301, 0o302, 0o140, 0o072, 0o043, 0o100, 0o047, 0o075, 0o042, 0o303, 0o141,
  0o142, 0o143, 0o144, 0o145, 0o146, 0o147, 0o150, 0o151, 0o304, 0o305, 0o306, 0o307, 0o310, 0o311, 0o312, 0o152, 0o153, 0o154, 0o155, 0o156, 0o157, 0o160,
  0o161, 0o162, 0o136, 0o314, 0o315, 0o316, 0o317, 0o320, 0o321, 0o345, 0o163, 0o164, 0o165, 0o166, 0o167, 0o170, 0o171, 0o172, 0o322, 0o323, 0o324, 0o133,
  0o326, 0o327, 0o330, 0o331, 0o332, 0o333, 0o334, 0o335, 0o336, 0o337, 0o340, 0o341, 0o342, 0o343, 0o344, 0o135, 0o346, 0o347, 0o173, 0o101, 0o102, 0o103,
  0o104, 0o105, 0o106, 0o107, 0o110, 0o111, 0o350, 0o351, 0o352, 0o353, 0o354, 0o355, 0o175, 0o112, 0o113, 0o114, 0o115, 0o116, 0o117, 0o120, 0o121, 0o122,
  0o356, 0o357, 0o360, 0o361, 0o362, 0o363, 0o134, 0o237, 0o123, 0o124, 0o125, 0o126, 0o127, 0o130, 0o131, 0o132, 0o364, 0o365, 0o366, 0o367, 0o370, 0o371,
  0o060, 0o061, 0o062, 0o063, 0o064, 0o065, 0o066, 0o067, 0o070, 0o071, 0o372, 0o373, 0o374, 0o375, 0o376, 0o377,
];

/** An exit of xxd with a message already written. */
class Exit {
  constructor(readonly status: number) {}
}

/** strtol(s, NULL, 0): leading blanks, a sign, 0x hex, 0 octal, else decimal; 0 without digits. */
function strtol(s: string): number {
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?/.exec(s)!;
  if (!m[2]) return 0;
  const d = m[2];
  const v = /^0[xX]/.test(d) ? parseInt(d.slice(2), 16) : d.length > 1 && d.startsWith("0") ? parseInt(d, 8) : parseInt(d, 10);
  return m[1] === "-" ? -v : v;
}

/** getc over an fd, in chunks. */
class Input {
  private buf: Uint8Array = new Uint8Array(0);
  private at = 0;
  eof = false;
  constructor(
    private readonly sys: System,
    readonly fd: number,
  ) {}
  getc(): number {
    if (this.at >= this.buf.length) {
      if (this.eof) return -1;
      this.buf = this.sys.read(this.fd);
      this.at = 0;
      if (this.buf.length === 0) {
        this.eof = true;
        return -1;
      }
    }
    return this.buf[this.at++]!;
  }
}

export default function xxd({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const pname = "xxd";
  const die = (status: number, message: string): never => {
    stderr.write(`${pname}: ${message}\n`);
    throw new Exit(status);
  };
  const usage = (): never => {
    stderr.write(USAGE);
    throw new Exit(1);
  };
  try {
    let autoskip = false;
    let hextype = Hex.NORMAL;
    let upper = false;
    let capitalize = false;
    let decimal = false;
    let revert = false;
    let ebcdic = false;
    let cols = 0;
    let colsGiven = false;
    let octspergrp = -1;
    let displayoff = 0;
    let relseek = false;
    let negseek = false;
    let seekoff = 0;
    let length = -1;
    let varname: string | undefined;
    const args = argv.slice(1);
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      const pp = a.startsWith("--") && a.length > 2 ? a.slice(1) : a;
      const o = pp.slice(0, 2);
      if (o === "-a") autoskip = !autoskip;
      else if (o === "-b") hextype = Hex.BITS;
      else if (o === "-e") hextype = Hex.LITTLEENDIAN;
      else if (o === "-u") upper = true;
      else if (o === "-p") hextype = Hex.POSTSCRIPT;
      else if (o === "-i") hextype = Hex.CINCLUDE;
      else if (o === "-C") capitalize = true;
      else if (o === "-d") decimal = true;
      else if (o === "-r") revert = true;
      else if (o === "-E") ebcdic = true;
      else if (o === "-v") {
        stderr.write(versionText("xxd", "xxd 2022-01-14"));
        return 0;
      } else if (o === "-c") {
        if (pp.length > 2 && pp.slice(2, 11) === "apitalize") capitalize = true;
        else {
          cols = strtol(arg(pp, "ols"));
          colsGiven = true;
        }
      } else if (o === "-g") octspergrp = strtol(arg(pp, "roup"));
      else if (o === "-o") {
        const v = arg(pp, "ffset");
        displayoff = strtol(v.replace(/^\+/, ""));
      } else if (o === "-s") {
        relseek = false;
        negseek = false;
        let v = arg(pp, "eek", "kip");
        if (v.startsWith("+")) (relseek = true), (v = v.slice(1));
        if (v.startsWith("-")) (negseek = true), (v = v.slice(1));
        seekoff = strtol(v);
      } else if (o === "-l") length = strtol(arg(pp, "en"));
      else if (o === "-n") varname = arg(pp, "ame");
      else if (pp === "--") {
        i++;
        break;
      } else if (pp.startsWith("-") && pp.length > 1) usage();
      else break;
    }
    /** STRNCMP(rest, pp + 2, len(rest)) != 0 ⇒ attached value; else the next argument. */
    function arg(pp: string, ...rests: string[]): string {
      if (pp.length > 2 && rests.every((r) => pp.slice(2, 2 + r.length) !== r)) return pp.slice(2);
      if (i + 1 >= args.length) usage();
      return args[++i]!;
    }
    const files = args.slice(i);

    if (!colsGiven || (!cols && hextype !== Hex.POSTSCRIPT))
      cols = hextype === Hex.POSTSCRIPT ? 30 : hextype === Hex.CINCLUDE ? 12 : hextype === Hex.BITS ? 6 : 16;
    if (octspergrp < 0) octspergrp = hextype === Hex.BITS ? 1 : hextype === Hex.NORMAL ? 2 : hextype === Hex.LITTLEENDIAN ? 4 : 0;
    if ((hextype === Hex.POSTSCRIPT && cols < 0) || (hextype !== Hex.POSTSCRIPT && (cols < 1 || cols > COLS))) die(1, `invalid number of columns (max. ${COLS}).`);
    if (octspergrp < 1 || octspergrp > cols) octspergrp = cols;
    else if (hextype === Hex.LITTLEENDIAN && octspergrp & (octspergrp - 1)) die(1, "number of octets per group must be a power of 2 with -e.");
    if (files.length > 2) usage();

    const infile = files.length === 0 || files[0] === "-" ? undefined : files[0]!;
    let fd = 0;
    if (infile !== undefined) {
      try {
        fd = sys.open(infile);
      } catch (e) {
        stderr.write(`${pname}: ${infile}: ${strerror(e)}\n`);
        return 2;
      }
    }
    const input = new Input(sys, fd);
    const getc = (): number => {
      try {
        return input.getc();
      } catch (e) {
        return die(2, strerror(e));
      }
    };

    let out: Output = stdout;
    let patchFile: string | undefined;
    if (files.length === 2 && files[1] !== "-") {
      const name = files[1]!;
      try {
        if (revert) patchFile = name;
        const ofd = sys.open(name, { write: true, create: true, truncate: !revert });
        if (revert) sys.close(ofd);
        else out = new Output(sys, ofd);
      } catch (e) {
        stderr.write(`${pname}: ${name}: ${strerror(e)}\n`);
        return 3;
      }
    }

    if (revert) {
      if (hextype !== Hex.NORMAL && hextype !== Hex.POSTSCRIPT) die(-1 & 0xff, "sorry, cannot revert this type of hexdump");
      return huntype(sys, getc, out, patchFile, cols, hextype, negseek ? -seekoff : seekoff, die);
    }

    // Seek: a file seeks (to its end with `-`); standard input is read through.
    if (seekoff || negseek || !relseek) {
      if (infile !== undefined) {
        const size = sys.fstat(fd).size;
        const target = negseek ? size - seekoff : seekoff;
        if (target < 0) die(4, "Sorry, cannot seek.");
        for (let s = target; s > 0 && getc() >= 0; s--);
        seekoff = target;
      } else {
        if (negseek) die(4, "Sorry, cannot seek.");
        for (let s = seekoff; s > 0; s--) if (getc() < 0) die(4, "Sorry, cannot seek.");
      }
    }

    const hexx = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    const hex2 = (c: number): string => hexx[(c >> 4) & 15]! + hexx[c & 15]!;
    let n = 0;
    if (hextype === Hex.POSTSCRIPT) {
      let p = cols;
      let line = "";
      for (let e: number; (length < 0 || n < length) && (e = getc()) >= 0; ) {
        line += hex2(e);
        n++;
        if (!--p) {
          out.write(`${line}\n`);
          line = "";
          p = cols;
        } else if (line.length >= 8192) {
          out.write(line);
          line = "";
        }
      }
      if (line) out.write(line);
      if (p < cols) out.write("\n");
      return finish(out, stdout);
    }
    if (hextype === Hex.CINCLUDE) {
      const cname = (s: string): string =>
        (/^[0-9]/.test(s) ? "__" : "") + [...Buffer.from(s, "utf8")].map((c) => (/[A-Za-z0-9]/.test(String.fromCharCode(c)) ? (capitalize ? String.fromCharCode(c).toUpperCase() : String.fromCharCode(c)) : "_")).join("");
      const name = varname ?? infile;
      if (infile !== undefined) out.write(`unsigned char ${varname !== undefined ? varname : cname(name!)}[] = {\n`);
      let p = 0;
      for (let c: number; (length < 0 || p < length) && (c = getc()) >= 0; p++) {
        out.write(`${p % cols ? ", " : !p ? "  " : ",\n  "}${upper ? `0X${hex2(c)}` : `0x${hex2(c)}`}`);
      }
      if (p) out.write("\n");
      if (infile !== undefined) out.write(`};\nunsigned int ${varname !== undefined ? varname : cname(name!)}_${capitalize ? "LEN" : "len"} = ${p};\n`);
      return finish(out, stdout);
    }

    // Normal, bits, little-endian: one line of `cols` octets at a time.
    const grplen = hextype !== Hex.BITS ? octspergrp * 2 + 1 : 8 * octspergrp + 1;
    const asciiAt = (addrlen: number): number => addrlen + 3 + Math.trunc((grplen * cols - 1) / octspergrp);
    let l: string[] = [];
    let addrlen = 9;
    let p = 0;
    let nonzero = 0;
    let c = 0;
    let zeroSeen = 0;
    let z = "";
    const xxdline = (line: string, nz: number): void => {
      if (!nz && zeroSeen === 1) z = line;
      if (nz || !zeroSeen++) {
        if (nz) {
          if (nz < 0) zeroSeen--;
          if (zeroSeen === 2) out.write(z);
          if (zeroSeen > 2) out.write("*\n");
        }
        if (nz >= 0 || zeroSeen > 0) out.write(line);
        if (nz) zeroSeen = 0;
      }
    };
    let lastLine = "";
    for (let e: number; (length < 0 || n < length) && (e = getc()) >= 0; ) {
      if (p === 0) {
        const off = n + seekoff + displayoff;
        const addr = `${decimal ? String(off).padStart(8, "0") : off.toString(16).padStart(8, "0")}:`;
        addrlen = addr.length;
        l = [...addr];
        for (let k = addrlen; k < asciiAt(addrlen) + cols + 2; k++) l[k] = " ";
      }
      const x = hextype === Hex.LITTLEENDIAN ? p ^ (octspergrp - 1) : p;
      c = addrlen + 1 + Math.trunc((grplen * x) / octspergrp);
      if (hextype !== Hex.BITS) {
        l[c] = hexx[(e >> 4) & 15]!;
        l[c + 1] = hexx[e & 15]!;
      } else for (let b = 7; b >= 0; b--) l[c++] = e & (1 << b) ? "1" : "0";
      if (e) nonzero++;
      if (ebcdic) e = e < 64 ? 46 : ETOA64[e - 64]!;
      c = asciiAt(addrlen) + p;
      l[c++] = e > 31 && e < 127 ? String.fromCharCode(e) : ".";
      n++;
      if (++p === cols) {
        lastLine = `${l.slice(0, c).join("")}\n`;
        xxdline(lastLine, autoskip ? nonzero : 1);
        nonzero = 0;
        p = 0;
      }
    }
    if (p) xxdline(`${l.slice(0, c).join("")}\n`, 1);
    else if (autoskip) xxdline(lastLine, -1);
    return finish(out, stdout);
  } catch (e) {
    if (e instanceof Exit) return e.status;
    throw e;
  }
}

function finish(out: Output, stdout: Output): number {
  if (out !== stdout) out.flush();
  return 0;
}

/** -r: hex pairs back to bytes, at the offsets the lines give (normal), or one stream (-p). */
function huntype(
  sys: System,
  getc: () => number,
  out: Output,
  patchFile: string | undefined,
  cols: number,
  hextype: Hex,
  baseOff: number,
  die: (status: number, message: string) => never,
): number {
  const parse = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);
  // A named output file is patched in memory (it may be sought in, backwards too); stdout is a stream.
  let image: Uint8Array | undefined;
  let imageLen = 0;
  if (patchFile !== undefined) {
    try {
      image = sys.readFile(patchFile);
    } catch {
      image = new Uint8Array(0);
    }
    imageLen = image.length;
  }
  const put = (byte: number, at: number): void => {
    if (image === undefined) return out.write(new Uint8Array([byte]));
    if (at >= image.length) {
      if (at + 1 > sys.maxMemoryBytes) die(3, "Cannot allocate memory");
      const grown = new Uint8Array(Math.max(at + 1, image.length * 2, 4096));
      grown.set(image.subarray(0, imageLen));
      image = grown;
    }
    image[at] = byte;
    imageLen = Math.max(imageLen, at + 1);
  };
  let ignGarb = true;
  let n1 = -1;
  let n2 = 0;
  let n3 = 0;
  let p = cols;
  let haveOff = 0;
  let wantOff = 0;
  const skipToEol = (c: number): number => {
    while (c !== 10 && c !== -1) c = getc();
    return c;
  };
  let pending: number[] = [];
  const flushPending = (): void => {
    if (pending.length) out.write(new Uint8Array(pending));
    pending = [];
  };
  for (let c = getc(); c !== -1; c = getc()) {
    if (c === 13) continue;
    if (hextype === Hex.POSTSCRIPT && (c === 32 || c === 10 || c === 9)) continue;
    n3 = n2;
    n2 = n1;
    n1 = parse(c);
    if (n1 === -1 && ignGarb) continue;
    ignGarb = false;
    if (hextype === Hex.NORMAL && p >= cols) {
      if (n1 < 0) {
        p = 0;
        continue;
      }
      wantOff = wantOff * 16 + n1;
      continue;
    }
    if (baseOff + wantOff !== haveOff) {
      if (image !== undefined) haveOff = baseOff + wantOff;
      if (baseOff + wantOff < haveOff) {
        flushPending();
        die(5, "Sorry, cannot seek backwards.");
      }
      for (; haveOff < baseOff + wantOff; haveOff++) {
        if (image === undefined) pending.push(0);
        if (pending.length >= 65536) flushPending();
      }
    }
    if (n2 >= 0 && n1 >= 0) {
      if (image === undefined) {
        pending.push((n2 << 4) | n1);
        if (pending.length >= 65536) flushPending();
      } else put((n2 << 4) | n1, haveOff);
      haveOff++;
      wantOff++;
      n1 = -1;
      if (hextype === Hex.NORMAL && ++p >= cols) c = skipToEol(c);
    } else if (n1 < 0 && n2 < 0 && n3 < 0) c = skipToEol(c);
    if (c === 10) {
      if (hextype === Hex.NORMAL) wantOff = 0;
      p = cols;
      ignGarb = true;
    }
  }
  flushPending();
  if (image !== undefined && patchFile !== undefined) {
    const fd = sys.open(patchFile, { write: true, create: true });
    try {
      sys.write(fd, image.subarray(0, imageLen));
    } finally {
      sys.close(fd);
    }
  }
  return 0;
}
