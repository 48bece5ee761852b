// Variable resolution, a pure function of the text and a scope: environment variables, file
// variables, earlier named responses and dynamic variables (`{{$auth.token("id")}}`, `{{$uuid}}`)
// delegated to a port. Nothing unresolved is guessed: it stays as written and is reported.
import type { HttpFile, HttpRequestNode, RequestBlock } from './model';
import { evaluateJsonPath } from './jsonPathLite';
import { writtenUrl } from './writtenUrl';
import { addFieldLine } from '../http/fieldLines';
import { nextReference, referencesIn } from '../secrets/vocabulary';
import { isSystemVariable } from './variables';

/** A response kept under a request's `# @name`, for `{{name.response.body.$.x}}` and `.headers.X`. */
export interface NamedResponse {
  readonly status: number;
  /** Case-insensitive lookup is done here; names as received. */
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /**
   * The origin it came from (after its redirects): a value of it that is secret there is bound to it
   * (prepareRequest, src/core/secrets/responseSecrets.ts).
   */
  readonly origin: string;
}

/** Where `{{name.response…}}` finds its response: a Map, or a view of one that notes what is read (prepareRequest). */
export type NamedResponses = Pick<ReadonlyMap<string, NamedResponse>, 'get'>;

/**
 * What a dynamic variable resolves to: its value; a value that is a secret (`secret` names it in words,
 * never the value: the caller binds it and its Redactor learns it); what is wrong with it, in words
 * naming it; undefined = cannot resolve here.
 */
export type DynamicAnswer = string | { readonly value: string; readonly secret: string } | { readonly problem: string } | undefined;

/** A .env file read for a request: its values, or why it could not be read. */
export type DotenvValues = { readonly file: string; readonly values: Readonly<Record<string, string>> } | { readonly problem: string };

/** What a dynamic variable may look up: a variable of the scope (`{{$processEnv %name}}`), the request's .env file. */
export interface DynamicLookups {
  readonly variable?: (name: string) => string | undefined;
  readonly dotenv?: DotenvValues;
}

/** Port for `{{$name args}}`: `$auth.token("engagement")`, `$uuid`, `$timestamp`, ... */
export interface DynamicVariableResolver {
  /** `name` is e.g. `$auth.token`, `args` the rest as written (`("engagement")`). */
  resolve(name: string, args: string, lookups?: DynamicLookups): DynamicAnswer;
}

export interface VariableScope {
  readonly environment?: Readonly<Record<string, string>>;
  /** Raw values; they may reference other variables. They win over environment variables. */
  readonly fileVariables?: Readonly<Record<string, string>>;
  readonly responses?: NamedResponses;
  readonly dynamic?: DynamicVariableResolver;
  /**
   * What texts resolved to in this scope before, answered again without resolving them: only for a
   * caller whose scope gives every text the same answer each time it is asked (fixed variables, no
   * response arriving, a dynamic port that always answers alike: the check before a run). Not used for a
   * scope with file variables (they differ from request to request).
   */
  readonly resolvedTexts?: Map<string, ResolvedText>;
}

/** 'invalid': a dynamic variable the product does not know or written with arguments it does not take. */
export type UnresolvedReason = 'undefined' | 'no-response' | 'not-found' | 'unsupported' | 'dynamic' | 'invalid' | 'cycle' | 'budget';

/**
 * The expansion budget of one text: variables may refer to variables, but not deeper than this, and all
 * substitutions together may not produce more than MAX_EXPANDED_LENGTH characters. A few self-doubling
 * definitions (`@a = {{b}}{{b}}`, `@b = {{c}}{{c}}`, …) would otherwise take gigabytes before failing.
 */
export const MAX_EXPANSION_DEPTH = 32;
export const MAX_EXPANDED_LENGTH = 10_000_000;

export interface UnresolvedVariable {
  readonly name: string;
  readonly reason: UnresolvedReason;
  readonly message: string;
}

export interface ResolvedText {
  readonly text: string;
  readonly unresolved: readonly UnresolvedVariable[];
}

/** The name of every `{{...}}` reference of a text, as resolveVariables finds them (across lines too). */
export function referenceNames(text: string): string[] {
  return referencesIn(text).map((reference) => reference.name);
}

export function resolveVariables(text: string, scope: VariableScope): ResolvedText {
  // No reference without '{{' (nextReference): most header values and many URLs and bodies have none.
  if (!text.includes('{{')) return { text, unresolved: [] };
  const memo = scope.resolvedTexts && !hasAny(scope.fileVariables) ? scope.resolvedTexts : undefined;
  const known = memo?.get(text);
  if (known) return known;
  const result = resolveUnremembered(text, scope);
  memo?.set(text, result);
  return result;
}

function hasAny(record: Readonly<Record<string, string>> | undefined): boolean {
  for (const _ in record) return true;
  return false;
}

function resolveUnremembered(text: string, scope: VariableScope): ResolvedText {
  const unresolved: UnresolvedVariable[] = [];
  const budget: Budget = { produced: 0, spent: false, fileValues: undefined };
  const resolved = substitute(text, scope, unresolved, [], budget);
  return { text: budget.spent ? text : resolved, unresolved };
}

interface Budget {
  /** Characters substituted so far. */
  produced: number;
  /** Set once the budget is exceeded: every further reference is left as written. */
  spent: boolean;
  /** Each file variable's expansion, computed once per text (they do not depend on where they are used); made on the first. */
  fileValues: Map<string, string | undefined> | undefined;
}

function substitute(text: string, scope: VariableScope, unresolved: UnresolvedVariable[], stack: readonly string[], budget: Budget): string {
  let result = '';
  let copied = 0;
  for (let found = nextReference(text); found; found = nextReference(text, found.end)) {
    if (budget.spent) break;
    const inner = found.name;
    const value = resolveName(inner, scope, unresolved, stack, budget);
    if (value === undefined) continue;
    budget.produced += value.length;
    if (budget.produced > MAX_EXPANDED_LENGTH) {
      budget.spent = true;
      if (!unresolved.some((u) => u.reason === 'budget')) {
        unresolved.push({ name: inner, reason: 'budget', message: `Expanding '${inner}' produces more than ${MAX_EXPANDED_LENGTH.toLocaleString('en')} characters: variables that repeat each other (such as @a = {{b}}{{b}}) grow without bound.` });
      }
      break;
    }
    result += text.slice(copied, found.start) + value;
    copied = found.end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/** Reports `name` unresolved (once per text) and answers undefined. */
function unresolvedAs(unresolved: UnresolvedVariable[], name: string, reason: UnresolvedReason, message: string): undefined {
  if (!unresolved.some((u) => u.name === name)) unresolved.push({ name, reason, message });
  return undefined;
}

/** `{{$name args}}` through the scope's port; `variable` lets it read a variable of the scope (`$processEnv %name`). */
function resolveDynamic(name: string, scope: VariableScope, unresolved: UnresolvedVariable[], stack: readonly string[], budget: Budget): string | undefined {
  const head = /^\$[\w.-]+/.exec(name)?.[0] ?? name;
  const variable = (other: string): string | undefined => (isSystemVariable(other) ? undefined : resolveName(other, scope, [], [...stack, name], budget));
  const answer = scope.dynamic?.resolve(head, name.slice(head.length).trim(), { variable });
  if (typeof answer === 'string') return answer;
  if (answer && 'problem' in answer) return unresolvedAs(unresolved, name, 'invalid', answer.problem);
  return answer?.value ?? unresolvedAs(unresolved, name, 'dynamic', `The dynamic variable '${head}' could not be resolved here.`);
}

function resolveName(name: string, scope: VariableScope, unresolved: UnresolvedVariable[], stack: readonly string[], budget: Budget): string | undefined {
  if (isSystemVariable(name)) return resolveDynamic(name, scope, unresolved, stack, budget);
  // `{{%name}}` (REST Client): the value of `name`, percent-encoded for a URL.
  if (name.startsWith('%') && name.length > 1) {
    const value = resolveName(name.slice(1).trim(), scope, unresolved, stack, budget);
    return value === undefined ? undefined : encodeURIComponent(value);
  }
  // (Only a name with a dot can be one: most are plain variable names.)
  const chained = name.includes('.') ? /^([\w-]+)\.(response|request)\.(body|headers)(?:\.(.*))?$/.exec(name) : null;
  if (chained) return resolveChained(chained, scope, (reason, message) => unresolvedAs(unresolved, name, reason, message));
  if (stack.includes(name)) return unresolvedAs(unresolved, name, 'cycle', `The variable '${name}' refers to itself (${[...stack, name].join(' → ')}).`);
  const fileValue = scope.fileVariables && Object.prototype.hasOwnProperty.call(scope.fileVariables, name) ? scope.fileVariables[name] : undefined;
  if (fileValue !== undefined) {
    if (budget.fileValues?.has(name)) return budget.fileValues.get(name);
    if (stack.length >= MAX_EXPANSION_DEPTH) {
      budget.spent = true;
      unresolved.push({ name, reason: 'budget', message: `The variable '${name}' is reached through more than ${MAX_EXPANSION_DEPTH} variables that refer to each other (${stack.slice(0, 3).join(' → ')} → …).` });
      return undefined;
    }
    const before = unresolved.length;
    const expanded = substitute(fileValue, scope, unresolved, [...stack, name], budget);
    // Remembered only when complete: a value that stopped at a cycle or at the budget is not reused.
    if (unresolved.length === before && !budget.spent) (budget.fileValues ??= new Map()).set(name, expanded);
    return expanded;
  }
  const envValue = scope.environment && Object.prototype.hasOwnProperty.call(scope.environment, name) ? scope.environment[name] : undefined;
  if (envValue !== undefined) return envValue;
  return unresolvedAs(unresolved, name, 'undefined', `The variable '${name}' is not defined in the active environment or the file.`);
}

function resolveChained(
  m: RegExpExecArray,
  scope: VariableScope,
  fail: (reason: UnresolvedReason, message: string) => undefined,
): string | undefined {
  const [, requestName = '', part, section, path = ''] = m;
  if (part === 'request') return fail('unsupported', 'Only the response of a named request can be referenced.');
  const response = scope.responses?.get(requestName);
  if (!response) return fail('no-response', `No response of the request '${requestName}' yet: send it first.`);
  if (section === 'headers') {
    const wanted = path.toLowerCase();
    const header = Object.entries(response.headers).find(([key]) => key.toLowerCase() === wanted);
    return header ? header[1] : fail('not-found', `The response of '${requestName}' has no header '${path}'.`);
  }
  if (path === '' || path === '*') return response.bodyText;
  let body: unknown;
  try {
    body = JSON.parse(response.bodyText) as unknown;
  } catch {
    return fail('not-found', `The response body of '${requestName}' is not JSON.`);
  }
  const result = evaluateJsonPath(body, path.startsWith('$') ? path : `$.${path}`);
  if (!result.found) {
    return result.reason === 'unsupported'
      ? fail('unsupported', `'${path}' uses JSONPath beyond $.a.b[0] and is not supported.`)
      : fail('not-found', `'${path}' is not in the response body of '${requestName}'.`);
  }
  const value = result.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** File variables visible to a request: every `@name = value` in its block and the blocks before it. */
export function fileVariablesFor(file: HttpFile, requestIndex: number): Record<string, string> {
  const index = indexOf(file);
  if (!index) return fileVariablesByScan(file, requestIndex);
  // As the scan: up to the first block whose request's index is >= requestIndex (requests are numbered 0, 1, 2…), else every block.
  const first = Math.max(0, Math.ceil(requestIndex));
  const stop = first < index.blockOfRequest.length ? index.blockOfRequest[first]! : file.blocks.length - 1;
  const result: Record<string, string> = {};
  for (const d of index.definitions) {
    if (d.block > stop) break;
    result[d.name] = d.value;
  }
  return result;
}

/** The rule fileVariablesFor answers from its index: every block up to the request's, in order, the last definition winning. */
export function fileVariablesByScan(file: HttpFile, requestIndex: number): Record<string, string> {
  const result: Record<string, string> = {};
  for (const block of file.blocks) {
    for (const variable of block.variables) result[variable.name] = variable.value;
    if (block.request && block.request.index >= requestIndex) break;
  }
  return result;
}

/** The request with this index and its block. */
export function requestAt(file: HttpFile, requestIndex: number): { block: RequestBlock; request: HttpRequestNode } | undefined {
  const index = indexOf(file);
  const block = index ? file.blocks[index.blockOfRequest[requestIndex] ?? -1] : file.blocks.find((b) => b.request?.index === requestIndex);
  return block?.request ? { block, request: block.request } : undefined;
}

/**
 * Where each request's block is and every file variable definition with its block, built once per parsed
 * file (a run resolves each of its requests: scanning the blocks before each one made a long file cost
 * quadratic time). Only for a file whose requests are numbered 0, 1, 2… in block order, as the parser
 * numbers them; any other file is scanned (undefined).
 */
interface FileIndex {
  /** blockOfRequest[i]: the position in file.blocks of request i's block. */
  readonly blockOfRequest: readonly number[];
  /** Every `@name = value` in file order, with its block's position. */
  readonly definitions: readonly { readonly block: number; readonly name: string; readonly value: string }[];
}

const fileIndexes = new WeakMap<HttpFile, FileIndex | null>();

function indexOf(file: HttpFile): FileIndex | undefined {
  let index = fileIndexes.get(file);
  if (index === undefined) {
    const blockOfRequest: number[] = [];
    const definitions: { block: number; name: string; value: string }[] = [];
    let numbered = true;
    file.blocks.forEach((block, position) => {
      for (const variable of block.variables) definitions.push({ block: position, name: variable.name, value: variable.value });
      if (!block.request) return;
      if (block.request.index !== blockOfRequest.length) numbered = false;
      blockOfRequest.push(position);
    });
    index = numbered ? { blockOfRequest, definitions } : null;
    fileIndexes.set(file, index);
  }
  return index ?? undefined;
}

export interface ResolvedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Inline body with variables substituted; absent for no body or an include. */
  readonly body?: string;
  /** A `< path` body the caller reads through its file port (substituting variables when asked). */
  readonly bodyInclude?: { readonly path: string; readonly substituteVariables: boolean; readonly encoding?: string };
  readonly directives: Readonly<Record<string, string>>;
  readonly name?: string;
  readonly unresolved: readonly UnresolvedVariable[];
}

/** The request at `requestIndex` with every variable the scope can resolve substituted. */
export function resolveRequest(file: HttpFile, requestIndex: number, scope: VariableScope): ResolvedRequest | undefined {
  const found = requestAt(file, requestIndex);
  if (!found) return undefined;
  const { block, request } = found;
  // fileVariablesFor gives a new object each call: no copy of it unless the scope has file variables to lay over it.
  const own = fileVariablesFor(file, requestIndex);
  // Named one by one, not spread: a spread copies through the runtime, for every request of a run (a field
  // added to VariableScope and left out here fails to compile).
  const fullScope = { environment: scope.environment, fileVariables: scope.fileVariables ? { ...own, ...scope.fileVariables } : own, responses: scope.responses, dynamic: scope.dynamic, resolvedTexts: scope.resolvedTexts } satisfies Record<keyof VariableScope, unknown>;
  const unresolved: UnresolvedVariable[] = [];
  const apply = (text: string): string => {
    const result = resolveVariables(text, fullScope);
    for (const u of result.unresolved) if (!unresolved.some((x) => x.name === u.name)) unresolved.push(u);
    return result.text;
  };
  const parts = partsOf(block, request);
  const headers: Record<string, string> = {};
  for (const header of request.headers) addFieldLine(headers, header.name, apply(header.value));
  const body = request.body;
  return {
    method: request.requestLine.method,
    url: apply(parts.url),
    headers,
    body: body?.kind === 'inline' ? apply(body.text) : undefined,
    bodyInclude: body?.kind === 'include' ? { path: body.path, substituteVariables: body.substituteVariables, ...(body.encoding ? { encoding: body.encoding } : {}) } : undefined,
    directives: parts.directives,
    name: request.name,
    unresolved,
  };
}

/** What resolveRequest reads of a request that no scope changes, as written. */
interface RequestParts {
  /** The request line's URL with its query continuation lines. */
  readonly url: string;
  /** The block's `# @key value` directives (frozen: every resolution of the request shares it). */
  readonly directives: Readonly<Record<string, string>>;
}

/** Made once per parsed request block: a run resolves each request twice (checked, then sent). */
const requestParts = new WeakMap<RequestBlock, RequestParts>();

function partsOf(block: RequestBlock, request: HttpRequestNode): RequestParts {
  let parts = requestParts.get(block);
  if (!parts) {
    parts = { url: writtenUrl(request), directives: Object.freeze(Object.fromEntries(block.directives.map((d) => [d.key, d.value]))) };
    requestParts.set(block, parts);
  }
  return parts;
}
