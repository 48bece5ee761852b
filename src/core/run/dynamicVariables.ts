// THE dynamic variables: every `{{$name args}}` REST Client, httpYac and JetBrains HTTP Client document,
// in one table that resolves them (the send, the CLI, generated code) and that the hover and completion
// describe (src/server/service). An entry says which tools write it, how it is written, what it gives,
// and either how it is made or why it is not supported. A name the table does not know, or arguments an
// entry does not take, is an error naming the variable: never an empty value, never "now".
// Values read from the process environment or a .env file are secrets: answered as such, so
// prepareRequest binds them to the environment's origins and the Redactor learns them.
// $auth.* is not here: prepareRequest answers it from the credential service.
import { randomInt, randomUUID } from 'node:crypto';
import type { DynamicAnswer, DynamicLookups, DynamicVariableResolver } from '../httpfile/resolve';
import { ALPHABETIC, ALPHANUMERIC, FAKER, fakerNames, HEXADECIMAL, randomText } from './dynamic/fake';
import { addOffset, formatDate, namedFormat, OFFSET_UNITS, parseOffset } from './dynamic/time';

type Tool = 'REST Client' | 'httpYac' | 'JetBrains';

interface Problem { readonly problem: string }
/** What the value is made from, when it is made. */
interface MakeContext {
  readonly now: number;
  readonly env: (name: string) => string | undefined | Problem;
  readonly lookups: DynamicLookups | undefined;
}
type Maker = (ctx: MakeContext) => string | Problem;

export interface DynamicVariable {
  /** As written after `{{`: `$timestamp`, `$random.integer`, `$env.NAME` (a family: NAME is any name). */
  readonly name: string;
  /** The arguments it takes, as written after the name ('' for none). */
  readonly args: string;
  /** The completion's snippet (LSP snippet syntax, without the leading `$`'s escape). */
  readonly snippet: string;
  readonly tools: readonly Tool[];
  /** What it gives, in the product's words. */
  readonly words: string;
  /** A value of the process environment or a .env file: a secret. */
  readonly secret?: boolean;
  /** Reads `args` (as written after the name): how to make the value, or what is wrong. Absent: not supported. */
  readonly parse?: (args: string, head: string) => Maker | Problem;
  /** Why it is not supported (when `parse` is absent). */
  readonly unsupported?: string;
}

const problem = (text: string): Problem => ({ problem: text });
const isProblem = (value: unknown): value is Problem => typeof value === 'object' && value !== null && 'problem' in value;
const noArgs = (make: Maker) => (args: string): Maker | Problem => (args.trim() === '' ? make : problem(`it takes no arguments (found '${args.trim()}')`));
const UNITS = OFFSET_UNITS.join(' ');

/** `[offset unit]` after the timestamp: `-1 d`. */
function timestamp(args: string): Maker | Problem {
  const offset = parseOffset(args);
  if (isProblem(offset)) return offset;
  return (ctx) => String(Math.floor(addOffset(ctx.now, offset) / 1000));
}

/** `rfc1123|iso8601|"pattern" [offset unit]` of $datetime and $localDatetime. */
function datetime(local: boolean) {
  return (args: string): Maker | Problem => {
    const match = /^\s*(rfc1123|iso8601|'[^']*'|"[^"]*")(.*)$/.exec(args);
    if (!match) return problem(`it takes rfc1123, iso8601 or a "quoted pattern" (e.g. "YYYY-MM-DD"), then an optional offset <integer> <unit> (${UNITS})`);
    const format = match[1] ?? '';
    const offset = parseOffset(match[2] ?? '');
    if (isProblem(offset)) return offset;
    return (ctx) => {
      const at = addOffset(ctx.now, offset, local);
      return format === 'rfc1123' || format === 'iso8601' ? namedFormat(at, format, local) : formatDate(at, format.slice(1, -1), local);
    };
  };
}

/** `min max` of $randomInt ([min, max)); none: [0, 1000) as JetBrains documents. */
function randomIntArgs(args: string): Maker | Problem {
  const parts = args.trim() === '' ? [] : args.trim().split(/\s+/);
  if (parts.length === 0) return () => String(randomInt(0, 1000));
  const [min, max] = parts.map(Number);
  if (parts.length !== 2 || !parts.every((p) => /^[+-]?\d{1,15}$/.test(p)) || min === undefined || max === undefined) return problem(`it takes two integers, min and max (found '${args.trim()}')`);
  if (!(max > min)) return problem(`max (${max}) must be greater than min (${min})`);
  return () => String(randomInt(min, max));
}

/** `(a, b)` of the JetBrains functions: the numbers inside the parentheses. */
function callArgs(args: string, count: number, what: string): number[] | Problem {
  const match = /^\s*\(([^()]*)\)\s*$/.exec(args);
  const parts = match ? (match[1] ?? '').split(',').map((p) => p.trim()) : [];
  if (!match || parts.length !== count || !parts.every((p) => /^[+-]?\d+(\.\d+)?$/.test(p))) return problem(`it is written with ${what} in parentheses (found '${args.trim() || 'nothing'}')`);
  return parts.map(Number);
}

function rangeArgs(float: boolean) {
  return (args: string): Maker | Problem => {
    const numbers = callArgs(args, 2, '(from, to)');
    if (isProblem(numbers)) return numbers;
    const [from = 0, to = 0] = numbers;
    if (!(to > from)) return problem(`'to' (${to}) must be greater than 'from' (${from})`);
    if (!float && (!Number.isSafeInteger(from) || !Number.isSafeInteger(to))) return problem('from and to are integers');
    return float ? () => String(from + Math.random() * (to - from)) : () => String(randomInt(from, to));
  };
}

const MAX_RANDOM_LENGTH = 10_000;
function lengthArgs(alphabet: string) {
  return (args: string): Maker | Problem => {
    const numbers = callArgs(args, 1, '(length)');
    if (isProblem(numbers)) return numbers;
    const [length = 0] = numbers;
    if (!Number.isInteger(length) || length < 0 || length > MAX_RANDOM_LENGTH) return problem(`the length is an integer from 0 to ${MAX_RANDOM_LENGTH} (found ${length})`);
    return () => randomText(alphabet, length);
  };
}

/** `[%]NAME`: the name itself, or (with %) the value of the variable NAME of the environment or file. */
function nameArg(args: string, pattern: RegExp): { percent: boolean; name: string } | Problem {
  const match = /^\s*(%)?(\S+)\s*$/.exec(args);
  const name = match?.[2] ?? '';
  if (!match || !pattern.test(name)) return problem(`it takes one name, optionally after % (found '${args.trim() || 'nothing'}')`);
  return { percent: match[1] === '%', name };
}

function named(arg: { percent: boolean; name: string }, ctx: MakeContext): string | Problem {
  if (!arg.percent) return arg.name;
  const value = ctx.lookups?.variable?.(arg.name);
  return value ?? problem(`%${arg.name} names the variable '${arg.name}', which is not defined in the active environment or the file`);
}

function processEnv(args: string): Maker | Problem {
  const arg = nameArg(args, /^\w+$/);
  if (isProblem(arg)) return arg;
  return (ctx) => {
    const name = named(arg, ctx);
    if (isProblem(name)) return name;
    const value = ctx.env(name);
    return value === undefined ? problem(`the process environment has no variable ${name}`) : value;
  };
}

function dotenv(args: string): Maker | Problem {
  const arg = nameArg(args, /^[\w.-]+$/);
  if (isProblem(arg)) return arg;
  return (ctx) => {
    const name = named(arg, ctx);
    if (isProblem(name)) return name;
    const file = ctx.lookups?.dotenv;
    if (!file) return problem('no .env file was read for this request');
    if ('problem' in file) return file;
    return Object.prototype.hasOwnProperty.call(file.values, name) ? (file.values[name] ?? '') : problem(`${file.file} has no variable ${name}`);
  };
}

function envDot(_args: string, head: string): Maker | Problem {
  const name = head.slice('$env.'.length);
  if (_args.trim() !== '') return problem(`it takes no arguments (found '${_args.trim()}')`);
  if (!/^\w+$/.test(name)) return problem('it is written $env.NAME, NAME a process environment variable');
  return (ctx) => ctx.env(name) ?? problem(`the process environment has no variable ${name}`);
}

const uuid = noArgs(() => randomUUID());
const NOT_HERE = 'it asks something of the user or an identity provider this product does not talk to; use an auth entry of the env file ({{$auth.token("id")}})';

/** The table. Order is the order completion lists them. */
export const DYNAMIC_VARIABLES: readonly DynamicVariable[] = [
  { name: '$guid', args: '', snippet: '$guid', tools: ['REST Client', 'httpYac'], words: 'a random UUID (v4)', parse: uuid },
  { name: '$uuid', args: '', snippet: '$uuid', tools: ['JetBrains', 'httpYac'], words: 'a random UUID (v4)', parse: uuid },
  { name: '$random.uuid', args: '', snippet: '$random.uuid', tools: ['JetBrains'], words: 'a random UUID (v4)', parse: uuid },
  { name: '$timestamp', args: '[offset unit]', snippet: '$timestamp', tools: ['REST Client', 'httpYac', 'JetBrains'], words: `the Unix time in seconds, now or moved by an offset such as -1 d (units ${UNITS})`, parse: timestamp },
  { name: '$isoTimestamp', args: '', snippet: '$isoTimestamp', tools: ['JetBrains', 'httpYac'], words: 'now in ISO 8601, UTC', parse: noArgs((ctx) => new Date(ctx.now).toISOString()) },
  { name: '$datetime', args: 'rfc1123|iso8601|"pattern" [offset unit]', snippet: '$datetime ${1|iso8601,rfc1123,"YYYY-MM-DD"|}', tools: ['REST Client', 'httpYac'], words: 'the date and time in UTC, in RFC 1123, ISO 8601 or a Day.js pattern, optionally moved by an offset', parse: datetime(false) },
  { name: '$localDatetime', args: 'rfc1123|iso8601|"pattern" [offset unit]', snippet: '$localDatetime ${1|iso8601,rfc1123,"YYYY-MM-DD"|}', tools: ['REST Client', 'httpYac'], words: "the date and time in this machine's time zone, as $datetime", parse: datetime(true) },
  { name: '$randomInt', args: '[min max]', snippet: '$randomInt ${1:0} ${2:100}', tools: ['REST Client', 'httpYac', 'JetBrains'], words: 'a random integer in [min, max); without arguments in [0, 1000)', parse: randomIntArgs },
  { name: '$random.integer', args: '(from, to)', snippet: '$random.integer(${1:0}, ${2:100})', tools: ['JetBrains'], words: 'a random integer in [from, to)', parse: rangeArgs(false) },
  { name: '$random.float', args: '(from, to)', snippet: '$random.float(${1:0}, ${2:1})', tools: ['JetBrains'], words: 'a random number in [from, to)', parse: rangeArgs(true) },
  { name: '$random.alphabetic', args: '(length)', snippet: '$random.alphabetic(${1:10})', tools: ['JetBrains'], words: 'random letters (a-z, A-Z) of that length', parse: lengthArgs(ALPHABETIC) },
  { name: '$random.alphanumeric', args: '(length)', snippet: '$random.alphanumeric(${1:10})', tools: ['JetBrains'], words: 'random letters and digits of that length', parse: lengthArgs(ALPHANUMERIC) },
  { name: '$random.hexadecimal', args: '(length)', snippet: '$random.hexadecimal(${1:10})', tools: ['JetBrains'], words: 'random hexadecimal digits of that length', parse: lengthArgs(HEXADECIMAL) },
  { name: '$random.email', args: '', snippet: '$random.email', tools: ['JetBrains'], words: 'a random e-mail address at an example domain', parse: noArgs(() => FAKER.internet?.emailAddress?.() ?? '') },
  { name: '$processEnv', args: '[%]NAME', snippet: '$processEnv ${1:NAME}', tools: ['REST Client', 'httpYac'], words: 'the value of the process environment variable NAME (with %: of the variable whose name the environment variable NAME holds); a secret, sent only to the environment\'s origins', secret: true, parse: processEnv },
  { name: '$env.NAME', args: '', snippet: '$env.${1:NAME}', tools: ['JetBrains'], words: 'the value of the process environment variable NAME; a secret, sent only to the environment\'s origins', secret: true, parse: envDot },
  { name: '$dotenv', args: '[%]NAME', snippet: '$dotenv ${1:NAME}', tools: ['REST Client', 'httpYac'], words: "the value of NAME in the .env file beside the .http file (.env.<environment> first); a secret, sent only to the environment's origins", secret: true, parse: dotenv },
  ...fakerNames().map((name): DynamicVariable => {
    const [, family = '', method = ''] = name.split('.');
    const make = FAKER[family]?.[method];
    return { name, args: '', snippet: name, tools: ['JetBrains'], words: `a random ${family} ${method.replace(/([A-Z])/g, ' $1').toLowerCase()} from a small list`, ...(make ? { parse: noArgs(make) } : { unsupported: 'not made here' }) };
  }),
  { name: '$aadToken', args: '', snippet: '$aadToken', tools: ['REST Client'], words: 'an Azure AD token', unsupported: NOT_HERE },
  { name: '$aadV2Token', args: '', snippet: '$aadV2Token', tools: ['REST Client'], words: 'an Azure AD v2 token', unsupported: NOT_HERE },
  { name: '$oidcAccessToken', args: '', snippet: '$oidcAccessToken', tools: ['REST Client'], words: 'an OpenID Connect token', unsupported: NOT_HERE },
  { name: '$input', args: '', snippet: '$input', tools: ['httpYac'], words: 'a value typed by the user', unsupported: NOT_HERE },
  { name: '$password', args: '', snippet: '$password', tools: ['httpYac'], words: 'a password typed by the user', unsupported: NOT_HERE },
  { name: '$pick', args: '', snippet: '$pick', tools: ['httpYac'], words: 'a value picked by the user', unsupported: NOT_HERE },
  { name: '$exampleServer', args: '', snippet: '$exampleServer', tools: ['JetBrains'], words: "JetBrains' example server", unsupported: 'it names a server of the JetBrains IDE' },
];

const BY_NAME = new Map(DYNAMIC_VARIABLES.map((v) => [v.name, v]));

/** The table's entry for a name as written (`$env.HOME` → the `$env.NAME` entry), or undefined. */
export function dynamicVariableNamed(head: string): DynamicVariable | undefined {
  return BY_NAME.get(head) ?? (/^\$env\.\w*$/.test(head) ? BY_NAME.get('$env.NAME') : undefined);
}

/** The words of an entry for a hover: how it is written, what it gives, which tools write it; or why not. */
export function dynamicVariableWords(v: DynamicVariable): string {
  const written = `\`{{${v.name}${v.args ? ` ${v.args}` : ''}}}\``;
  if (!v.parse) return `${written} (${v.tools.join(', ')}) is not supported: ${v.unsupported ?? 'not here'}.`;
  return `${written}: ${v.words} (${v.tools.join(', ')}).`;
}

/** Reads a use of a variable without making its value: the entry and its maker, or what is wrong, in words naming it. */
function readUse(head: string, args: string): { entry: DynamicVariable; make: Maker } | Problem {
  const entry = dynamicVariableNamed(head);
  if (!entry) return problem(`'${head}' is not a dynamic variable this product knows (the completion after {{$ lists them)`);
  if (!entry.parse) return problem(`'${head}' is not supported: ${entry.unsupported ?? ''}`);
  const make = entry.parse(args, head);
  return isProblem(make) ? problem(`'${head}': ${make.problem}`) : { entry, make };
}

export interface DynamicOptions {
  readonly now?: () => number;
  /** The process environment; `{ refused }`: why it may not be read here (an untrusted workspace). Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>> | { readonly refused: string };
}

/** The resolver of the table, for a send or a run. */
export function dynamicVariables(options: DynamicOptions = {}): DynamicVariableResolver {
  const now = options.now ?? Date.now;
  const source = options.env ?? process.env;
  const env = (name: string): string | undefined | Problem =>
    'refused' in source && typeof source.refused === 'string' ? problem(source.refused) : (source as Readonly<Record<string, string | undefined>>)[name];
  return {
    resolve(head, args, lookups): DynamicAnswer {
      const use = readUse(head, args);
      if (isProblem(use)) return use;
      const value = use.make({ now: now(), env, lookups });
      if (isProblem(value)) return problem(`'${head}': ${value.problem}`);
      return use.entry.secret ? { value, secret: `the value of {{${head}${args ? ` ${args}` : ''}}}` } : value;
    },
  };
}

/** The check before a run: every use is read (unknown names, wrong arguments), nothing is made or read. */
export const DYNAMIC_SHAPES: DynamicVariableResolver = {
  resolve(head, args) {
    if (head.startsWith('$auth.')) return 'x';
    const use = readUse(head, args);
    return isProblem(use) ? use : 'x';
  },
};
