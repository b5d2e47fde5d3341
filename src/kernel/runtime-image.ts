import { rootCertificates } from "node:tls";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PACKAGE_DIR } from "../util/package-dir.js";
import { Image, type ImageEntry } from "./image.js";

/** Where git looks for the templates `git init` copies into `.git` (its compiled-in default). */
const GIT_TEMPLATE_DIR = "/usr/share/git-core/templates";
/** Where CPython, built with prefix /usr, finds its standard library. */
const PYTHON_LIB_DIR = "/usr/lib/python3.13";

/** Where npm lives in Node's own distribution, and its commands' links (node-v*-linux-x64/{lib/node_modules,bin}). */
const NPM_DIR = "/usr/lib/node_modules/npm";

let gitImage: Image | undefined;
let pythonImage: Image | undefined;
let npmImage: Image | undefined;
let npmLinks: Image | undefined;
let pipConf: Image | undefined;

/**
 * pip's site-wide configuration: an index at host.agentos.internal (the host's loopback as the VM's network
 * policy lets the VM reach it) is trusted over plain HTTP, as pip trusts one at localhost.
 */
const PIP_CONF = "/etc/pip.conf";
const PIP_CONF_TEXT = `# An index at host.agentos.internal (the host's loopback, as the VM's network policy allows) is trusted over
# plain HTTP, as pip trusts one at localhost.
[global]
trusted-host = host.agentos.internal
`;

/**
 * The runtime's own files that VMs only read, as image layers (image.ts) made once per host process and
 * shared by every VM below its own files: the CA bundle (Node's root certificates) and OpenSSL's default
 * configuration (Debian 12's openssl.cnf, which `openssl req` and curl read), git's templates
 * (guests/dist/git-templates.json, from its build) when the VM has git, and CPython's standard library
 * (guests/dist/python3.13-lib.tar.gz), read when a process first enters its directory, with pip's /etc/pip.conf, and npm (the package
 * dependency, as Node's distribution ships it: `npm` and `npx` are links to its scripts, which guest `node` runs
 * by their `#!/usr/bin/env node` line) when the VM has node, read when a process first enters its directory.
 * A VM pays for none of their bytes unless it changes them.
 */
export function runtimeLayers(commands: { names(): readonly string[] }): Image[] {
  caImage ??= Image.fromFiles({
    [CA_BUNDLE]: { data: ROOT_BUNDLE, mode: 0o644 },
    [OPENSSL_CNF]: { data: readFileSync(join(PACKAGE_DIR, "guests/openssl/openssl.cnf")), mode: 0o644 },
  });
  const names = commands.names();
  const layers: Image[] = [caImage];
  if (names.includes("git")) {
    if (!gitImage) {
      const templates = JSON.parse(readFileSync(join(PACKAGE_DIR, "guests/dist/git-templates.json"), "utf8")) as Record<string, { mode: number; text: string }>;
      const files: Record<string, ImageEntry> = {};
      for (const [path, { mode, text }] of Object.entries(templates)) files[`${GIT_TEMPLATE_DIR}/${path}`] = { data: text, mode };
      gitImage = Image.fromFiles(files);
    }
    layers.push(gitImage);
  }
  if (names.includes("python3")) {
    pythonImage ??= Image.deferred(PYTHON_LIB_DIR, () => Image.fromTar(readFileSync(join(PACKAGE_DIR, "guests/dist/python3.13-lib.tar.gz"))));
    pipConf ??= Image.fromFiles({ [PIP_CONF]: PIP_CONF_TEXT });
    layers.push(pythonImage, pipConf);
  }
  if (names.includes("node")) {
    npmImage ??= Image.deferred(NPM_DIR, () => Image.fromDirectory(dirname(createRequire(import.meta.url).resolve("npm/package.json"))));
    npmLinks ??= Image.fromFiles({
      "/usr/bin/npm": { symlink: "../lib/node_modules/npm/bin/npm-cli.js" },
      "/usr/bin/npx": { symlink: "../lib/node_modules/npm/bin/npx-cli.js" },
    });
    layers.push(npmImage, npmLinks);
  }
  return layers;
}

/** Where programs look for the trusted CAs (OpenSSL's default file on Debian): Node's bundled roots, tls.rootCertificates. */
export const CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
/** CA_BUNDLE's text in every VM not given `network.ca` (a VM with it has those certificates appended). */
export const ROOT_BUNDLE = `${rootCertificates.join("\n")}\n`;
let caImage: Image | undefined;
/** OpenSSL's configuration file for the built-in OPENSSLDIR, /usr/lib/ssl (guests/openssl/README.md). */
export const OPENSSL_CNF = "/usr/lib/ssl/openssl.cnf";
