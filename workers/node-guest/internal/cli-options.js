// Node's options, on the command line and in NODE_OPTIONS, checked against this Node's own option table
// (workers/node-host/node-tables-ops.ts): an unknown option is Node's "bad option" (exit 9), and NODE_OPTIONS
// takes only what Node allows there ("--eval is not allowed in NODE_OPTIONS"). Options the guest has no use for
// (--max-old-space-size, --enable-source-maps, --no-warnings, …) are accepted and have no effect.
'use strict';

const {
  ArrayPrototypeIncludes,
  ArrayPrototypePush,
  JSONParse,
  RegExpPrototypeSymbolReplace,
  SafeSet,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
  hardenRegExp,
} = require('internal/primordials');

/** Node's option types (internalBinding('options').types). */
const kV8Option = 1;
const kBoolean = 2;
const kInteger = 3;

/**
 * V8 flags Node hands to V8 that are not in Node's own table: the ones programs and tools commonly pass. The
 * guest accepts them (on the command line only, as Node) and they have no effect.
 */
const V8_FLAGS = new SafeSet(['--stack-size', '--stack-trace-limit', '--harmony', '--allow-natives-syntax', '--expose-externalize-string', '--trace-gc', '--no-opt', '--max-lazy', '--single-threaded', '--predictable', '--random-seed', '--huge-max-old-generation-size']);

let table;
function optionTable() {
  table ??= JSONParse(internal.host('nodeTable', 'cliOptions'));
  return table;
}

/** Thrown for a command line Node rejects: its message, as Node prints it after "node: ". */
class UsageError {
  constructor(message) {
    this.message = message;
  }
}

/**
 * The options at the start of `args` (up to the script, `-` or `--`): [{ name, value, given }] with `name`
 * Node's canonical one (`-r` is `--require`), and the index of the first argument that is not an option.
 * From NODE_OPTIONS (`fromEnv`), an option Node does not allow there is an error.
 */
function parseOptions(args, fromEnv) {
  const { options, aliases, allowedInEnv } = optionTable();
  const out = [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--' && !fromEnv) {
      i++;
      break;
    }
    if (!StringPrototypeStartsWith(arg, '-') || arg === '-') break;
    let written = arg;
    let value;
    const eq = StringPrototypeStartsWith(arg, '--') ? StringPrototypeIndexOf(arg, '=') : -1;
    if (eq > 0) {
      written = StringPrototypeSlice(arg, 0, eq);
      value = StringPrototypeSlice(arg, eq + 1);
    }
    // Node takes `_` in an option's name as `-`.
    let name = StringPrototypeStartsWith(written, '--') ? `--${RegExpPrototypeSymbolReplace(hardenRegExp(/_/g), StringPrototypeSlice(written, 2), '-')}` : written;
    const shown = eq > 0 ? `${written}=` : written;
    let names = [name];
    const alias = (eq > 0 && aliases[`${name}=`]) || aliases[name];
    if (alias !== undefined && alias.length === 2 && !StringPrototypeStartsWith(alias[1], '-')) {
      // An alias with its value (--trace-events-enabled).
      names = [alias[0]];
      value ??= alias[1];
    } else if (alias !== undefined && alias.length > 0) names = alias;
    // `-p code` is `-pe code` (Node's alias "--print <arg>"): print, and eval the value.
    if (names.length === 1 && names[0] === '--print') names = ['--print', '--eval'];
    name = names[names.length - 1];
    let info = options[name];
    let negated = false;
    if (info === undefined && StringPrototypeStartsWith(name, '--no-')) {
      const positive = `--${StringPrototypeSlice(name, 5)}`;
      if (options[positive] !== undefined && options[positive][0] === kBoolean) {
        info = options[positive];
        negated = true;
      }
    }
    if (info === undefined) {
      if (fromEnv || !V8_FLAGS.has(name)) throw new UsageError(fromEnv ? `${shown} is not allowed in NODE_OPTIONS` : `bad option: ${arg}`);
      ArrayPrototypePush(out, { name, value, given: [arg] });
      continue;
    }
    const type = info[0], allowedInEnv0 = info[1];
    if (fromEnv && (type === kV8Option ? !ArrayIncludesSafe(allowedInEnv, name) : !allowedInEnv0)) throw new UsageError(`${shown} is not allowed in NODE_OPTIONS`);
    const given = [arg];
    if ((type >= kInteger || (names.length === 2 && names[0] === '--print')) && value === undefined && !negated) {
      if (i + 1 >= args.length) throw new UsageError(`${written} requires an argument`);
      value = args[++i];
      ArrayPrototypePush(given, value);
    }
    for (let n = 0; n < names.length; n++) ArrayPrototypePush(out, { name: names[n], value: n === names.length - 1 ? value : undefined, given: n === 0 ? given : [], negated });
  }
  return { options: out, index: i };
}

const ArrayIncludesSafe = (list, v) => ArrayPrototypeIncludes(list, v);

/** NODE_OPTIONS' words, as Node splits them: on spaces, with "double quotes" and backslash escapes inside them. */
function splitNodeOptions(text) {
  const words = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\' && i + 1 < text.length) word += text[++i];
      else if (c === '"') quoted = false;
      else word += c;
    } else if (c === '"') {
      quoted = true;
      inWord = true;
    } else if (c === ' ') {
      if (inWord) ArrayPrototypePush(words, word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quoted) throw new UsageError('NODE_OPTIONS: unterminated string');
  if (inWord) ArrayPrototypePush(words, word);
  return words;
}

module.exports = { parseOptions, splitNodeOptions, UsageError };
