/**
 * How GNU coreutils quote names in messages (gnulib quotearg): file names in shell syntax that can be
 * pasted back (`quoteaf`, always quoted; `quotef`, only when needed), other strings in the locale's
 * quotation marks (`quote`).
 */

const ESCAPES: Record<string, string> = { "\x07": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r" };
const CONTROL = /[\x00-\x1f\x7f]/;
/** Characters a shell gives meaning to, and so make `quotef` quote. */
const SHELL_SPECIAL = /[\s!"#$&'()*;<=>?[\\\]^`{|}]|^~/;

const escape = (c: string): string => ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`;

/** 'name', "it's" when it holds a single quote, 'a'$'\n''b' for control characters (shell-escape-always). */
export function quoteaf(name: string): string {
  if (!CONTROL.test(name)) {
    if (!name.includes("'")) return `'${name}'`;
    if (!/["$`\\]/.test(name)) return `"${name}"`;
    return `'${name.replaceAll("'", "'\\''")}'`;
  }
  // Runs of plain text in '…', control characters in $'…'; no empty '' after the last escape.
  let out = "'";
  let open = true;
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (CONTROL.test(c)) {
      let esc = "";
      for (; i < name.length && CONTROL.test(name[i]!); i++) esc += escape(name[i]!);
      i--;
      out += `${open ? "'" : ""}$'${esc}'`;
      open = false;
    } else {
      if (!open) out += "'";
      open = true;
      out += c === "'" ? "'\\''" : c;
    }
  }
  return open ? `${out}'` : out;
}

/** The name as is when a shell would read it so, else as quoteaf quotes it (shell-escape). */
export function quotef(name: string): string {
  return name !== "" && !SHELL_SPECIAL.test(name) && !CONTROL.test(name) ? name : quoteaf(name);
}

/** ‘text’ in a UTF-8 locale, 'text' otherwise (the charset is LC_ALL's, else LC_CTYPE's, else LANG's). */
export function quote(text: string, env: Readonly<Record<string, string>>): string {
  const locale = env["LC_ALL"] || env["LC_CTYPE"] || env["LANG"] || "";
  return /utf-?8/i.test(locale) ? `\u2018${text}\u2019` : `'${text}'`;
}
