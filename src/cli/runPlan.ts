// `apiwb run`'s plan: which requests of which files run, in order, and everything checked before the
// first one is sent (exit 2, naming file:line): each file parses, every plain variable is defined, every
// `< file` body is there, no output is an input (each `< file` body and .env file read is one). Also which responses are read later by name (kept whole).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import type { Environment } from '../core/env/model';
import { CONTRACT_SERVICES, createCatalog, type Catalog } from '../core/catalog';
import { readOverlayFile, withOverlay, type OpenApiImport } from '../core/openapi';
import { parseHttpFile } from '../core/httpfile/parser';
import { referenceNames, type ResolvedText } from '../core/httpfile/resolve';
import type { FileVariable, HttpFile, HttpRequestNode, RequestBlock } from '../core/httpfile/model';
import { pagingPlanFor } from '../core/run/pagingPlan';
import { fileProblems } from '../core/run/notRun';
import { checkRequest, mentionsDotenv } from '../core/run/prepareRequest';
import { dotenvNames } from '../core/run/dotenvFile';
import { RunFiles } from '../core/files/outputs';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';
import { decodeBodyFile } from '../core/text/bodyFile';
import { pathVariableProblem, shownFileLine } from '../core/run/bodyFileParts';
import { RESUME_RECORDS, resumePathFor } from './resumeFile';
import { InputError, shownPath } from './nodePorts/files';
import type { RunOptions } from './runArguments';
import { faultText } from '../core/text/faultText';

export interface PlannedRequest {
  readonly file: string;
  readonly shown: string;
  readonly parsed: HttpFile;
  readonly node: HttpRequestNode;
  /** The block holding the request (its kept constructs are said with it). */
  readonly block: RequestBlock;
  /** `file:line` of the request line, for messages. */
  readonly where: string;
  /**
   * The first request of its file in this run (whichever: --name may pick a later one): the file's own
   * constructs outside every request (an httpYac global `{{ }}` script, an import) are said with it, once
   * per file run.
   */
  readonly saysFile: boolean;
  /** A later request of the run (or a file variable) reads this one's response by its # @name: its body is kept. */
  readonly readLater: boolean;
}

/** A file of the run with no request (an unclosed block may have swallowed them): its problems are still said; `before`: where in the plan it stands. */
export interface FileWithoutRequests {
  readonly shown: string;
  readonly parsed: HttpFile;
  readonly before: number;
}

/** The requests of a run, in order, and every file variable of its files; which responses are read later comes after the check (withReadLater). */
export function planRequests(files: readonly string[], name: string | undefined): {
  requests: Omit<PlannedRequest, 'readLater'>[]; fileVariables: FileVariable[]; withoutRequests: FileWithoutRequests[];
} {
  const planned: Omit<PlannedRequest, 'readLater'>[] = [];
  const parsedFiles: HttpFile[] = [];
  const withoutRequests: FileWithoutRequests[] = [];
  for (const file of files) {
    const shown = shownPath(file);
    const parsed = parseHttpFile(readFileSync(file, 'utf8'));
    parsedFiles.push(parsed);
    // With --name, a file without that name is no problem of the run.
    if (name === undefined && parsed.requests.length === 0) withoutRequests.push({ shown, parsed, before: planned.length });
    const firstOfFile = planned.length;
    for (const block of parsed.blocks) {
      const node = block.request;
      if (node && (name === undefined || node.name === name)) planned.push({ file, shown, parsed, node, block, where: `${shown}:${node.range.start.line + 1}`, saysFile: planned.length === firstOfFile });
    }
  }
  if (planned.length === 0) {
    // Why a file has none, when the parser knows (an unclosed block that swallowed them): its first problem.
    const why = withoutRequests.flatMap((f) => fileProblems(f.parsed).slice(0, 1).map((p) => `; ${f.shown}:${p.line}: ${p.reason}`)).join('');
    throw new InputError(name === undefined ? `no requests in ${files.map(shownPath).join(', ')}${why}` : `no request named '${name}' in ${files.map(shownPath).join(', ')}`);
  }
  return { requests: planned, fileVariables: parsedFiles.flatMap((f) => f.blocks.flatMap((b) => b.variables)), withoutRequests };
}

/**
 * The plan with readLater: a request's own references, and those of the `<@` file its body includes
 * (`included`: their names; its variables are filled when it is sent). A response read later is kept
 * for the request that reads it.
 */
export function withReadLater(plan: ReturnType<typeof planRequests>, included: readonly (readonly string[] | undefined)[]): PlannedRequest[] {
  const requests = plan.requests.map((p, i) => {
    const names = included[i];
    return names === undefined || names.length === 0 ? p.node : { name: p.node.name, references: [...p.node.references, ...names.map((name) => ({ name }))] };
  });
  const later = readLaterFlags(requests, plan.fileVariables);
  return plan.requests.map((p, i) => ({ ...p, readLater: later[i]! }));
}

/**
 * For each request of the run, in order: whether a request after it in the run (any file: named responses
 * are shared by the whole run) or any file variable (expanded wherever it is used) reads its response or
 * request by its # @name (`{{name.response…}}`). One pass from the end: a run of n requests costs O(n).
 */
export function readLaterFlags(requests: readonly { readonly name?: string | undefined; readonly references: readonly { readonly name: string }[] }[], fileVariables: readonly Pick<FileVariable, 'references'>[]): boolean[] {
  const read = new Set<string>();
  const note = (references: readonly { readonly name: string }[]): void => {
    for (const ref of references) {
      // `{{name.response.body.$.x}}`: every prefix up to a dot may be the name it reads.
      for (let dot = ref.name.indexOf('.'); dot > 0; dot = ref.name.indexOf('.', dot + 1)) read.add(ref.name.slice(0, dot));
    }
  };
  for (const variable of fileVariables) note(variable.references);
  const flags = new Array<boolean>(requests.length);
  for (let i = requests.length - 1; i >= 0; i--) {
    const request = requests[i]!;
    flags[i] = request.name !== undefined && read.has(request.name);
    note(request.references);
  }
  return flags;
}

/**
 * A file a request reads, beside its .http file: `role` names it in a refusal; `missing`: the request's
 * problem when it is not there (a `.env` is read only when there); `problem`: why it is not read at all;
 * `substituted`: a `<@` file (the body or a multipart part), whose {{…}} are filled when it is sent, so
 * the names it reads count for readLater (`shown`: its line as written, `encoding`: as the line says).
 */
export interface FileReadByRequest {
  readonly path: string;
  readonly role: string;
  readonly missing?: string;
  readonly problem?: string;
  readonly substituted?: { readonly shown: string; readonly encoding?: string | undefined };
}

/** The `substituted` mark of a file line written `<@`. */
const substitutedOf = (line: { readonly substituteVariables: boolean; readonly encoding?: string | undefined }, shown: string): Pick<FileReadByRequest, 'substituted'> =>
  (line.substituteVariables ? { substituted: { shown, encoding: line.encoding } } : {});

/**
 * Every file a planned request reads, in the order it is checked: its `< file` body, the .env files of
 * {{$dotenv}} (for `environment`), each multipart `< ./file` part. The one list both the check before
 * sending and a run's fault report register as inputs of the run (no output overwrites them).
 */
export function filesReadBy(item: Pick<PlannedRequest, 'file' | 'shown' | 'node' | 'where'>, environment: string): FileReadByRequest[] {
  const folder = dirname(item.file);
  const body = item.node.body;
  const files: FileReadByRequest[] = [];
  if (body?.kind === 'include') {
    const shown = shownFileLine(body);
    files.push({ path: resolvePath(folder, body.path), role: `the body file (${shown} of ${item.where})`, missing: `${shown}: no such file next to ${item.shown}`, ...substitutedOf(body, shown) });
  }
  if (mentionsDotenv(item.node)) {
    for (const name of dotenvNames(environment)) files.push({ path: join(folder, name), role: `the file {{$dotenv}} of ${item.where} reads` });
  }
  // A multipart body's `< ./file` parts: the same rule as a `< file` body (beside the .http file, an input of the run).
  for (const part of body?.kind === 'inline' ? body.files ?? [] : []) {
    const variable = pathVariableProblem(part);
    const shown = shownFileLine(part);
    files.push({ path: resolvePath(folder, part.path), role: `a file part (${shown} of ${item.where})`, missing: `${shown}: no such file next to ${item.shown}`, ...(variable === undefined ? {} : { problem: variable }), ...substitutedOf(part, shown) });
  }
  return files;
}

/**
 * What the check before sending found: the request's problem in words (without its file and line: the
 * caller says those), or the reference names of the `<@` files it reads (they count for readLater).
 */
export type SendCheck = { readonly problem: string } | { readonly problem?: undefined; readonly names?: readonly string[] };

/**
 * Before anything is sent: every plain variable defined, every $auth id declared, every file the request
 * reads present (filesReadBy: the `< file` body, .env files, multipart parts), and with --all-pages every
 * `# @paging` directive readable. A `<@` file's names are found once a file for the run (`names`, by
 * path); the file's text is not kept. Whether a problem sets the request aside (`apiwb run`) or stops
 * everything (`apiwb compare`) is the caller's.
 */
export function checkBeforeSending(item: Omit<PlannedRequest, 'readLater'>, environment: Environment, allPages: boolean, catalog: Catalog, names: Map<string, readonly string[]>, checkedTexts: Map<string, ResolvedText>, runFiles: RunFiles): SendCheck {
  const checked = checkRequest(item.parsed, item.node.index, environment, checkedTexts);
  if (!checked.ok) return { problem: checked.problem };
  const substituted: FileReadByRequest[] = [];
  for (const read of filesReadBy(item, environment.name)) {
    if (read.problem !== undefined) return { problem: read.problem };
    if (read.missing !== undefined && !existsSync(read.path)) return { problem: read.missing };
    runFiles.input(read.path, read.role);
    if (read.substituted) substituted.push(read);
  }
  if (allPages) {
    const lookup = pagingPlanFor(checked.resolved, checked.resolved.directives, catalog);
    if (!lookup.ok) return { problem: lookup.error };
  }
  if (substituted.length === 0) return {};
  const found: string[] = [];
  for (const read of substituted) {
    const inFile = namesIn(read, names);
    if (typeof inFile === 'string') return { problem: inFile };
    found.push(...inFile);
  }
  return { names: found };
}

/** The reference names a `<@` file reads (`names`: those of the files read before, by path), or why it cannot be read. */
function namesIn(read: FileReadByRequest, names: Map<string, readonly string[]>): readonly string[] | string {
  const known = names.get(read.path);
  if (known) return known;
  let found: readonly string[];
  try {
    const text = decodeBodyFile(readFileSync(read.path), read.substituted?.encoding);
    found = text.includes('{{') ? referenceNames(text) : [];
  } catch (error) {
    return `${read.substituted?.shown ?? read.path}: ${faultText(error)}`;
  }
  names.set(read.path, found);
  return found;
}

/**
 * The check before sending of every request of the plan against one environment, in order (one result a
 * request), with one cache of `<@` bodies' names and resolved texts for the whole plan. The one loop of
 * `apiwb run` (a request with a problem is set aside) and of `apiwb compare` (each live side; a problem
 * stops the comparison).
 */
export function checkPlan(requests: readonly Omit<PlannedRequest, 'readLater'>[], environment: Environment, allPages: boolean, catalog: Catalog, runFiles: RunFiles): SendCheck[] {
  const names = new Map<string, readonly string[]>();
  const checkedTexts = new Map<string, ResolvedText>();
  return requests.map((item) => checkBeforeSending(item, environment, allPages, catalog, names, checkedTexts, runFiles));
}

/** The CLI's reader of a request's `< file` bodies: beside the .http file `file`, decoded as the line says. */
export function bodyFileReader(file: string): (path: string, encoding?: string, strict?: boolean) => Promise<string> {
  return async (path, encoding, strict) => decodeBodyFile(await readFile(resolvePath(dirname(file), path)), encoding, strict);
}

/** A request's problem as an input error of the whole command (exit 2), naming its file and line. */
export function requestInputError(item: Pick<PlannedRequest, 'where' | 'shown' | 'node'>, problem: string): InputError {
  return new InputError(`${item.where}: ${problem}`, { file: item.shown, line: item.node.range.start.line + 1 });
}

/**
 * The inputs every run knows before it plans: its .http files, env file and private env file beside it,
 * overlays and --cacert files. What reads another file registers it as it reads: the files a request
 * reads (filesReadBy, in checkBeforeSending), the env file's certificates (resolveRunNetwork).
 */
export function registerRunInputs(runFiles: RunFiles, files: readonly string[], envPath: string | undefined, options: { readonly overlays: readonly string[]; readonly cacert?: readonly string[] | undefined }): void {
  for (const file of files) runFiles.input(file, 'the .http file');
  if (envPath) {
    runFiles.input(envPath, 'the env file');
    runFiles.input(join(dirname(envPath), PRIVATE_ENV_FILE_NAME), 'the private env file');
  }
  for (const overlay of options.overlays) runFiles.input(overlay, 'the overlay');
  for (const ca of options.cacert ?? []) runFiles.input(ca, 'the --cacert file');
}

/** --out, its resume record and --report are claimed before anything is sent: none may be an input, a link or a folder (exit 2). */
export function claimOutputs(runFiles: RunFiles, options: RunOptions): void {
  try {
    if (options.out) {
      runFiles.claim(options.out, '--out');
      runFiles.claim(resumePathFor(options.out), "--out's resume record", RESUME_RECORDS);
    }
    if (options.report) runFiles.claim(options.report, '--report');
  } catch (error) {
    throw new InputError(faultText(error));
  }
}

/** The contracts plus the overlays given (--overlay): one catalog for the command, passed to every exchange. */
export function catalogOf(overlays: readonly string[]): Catalog {
  return createCatalog(withOverlay(CONTRACT_SERVICES, overlays.map(readOverlay)));
}

function readOverlay(path: string): OpenApiImport {
  try {
    return readOverlayFile(readFileSync(path, 'utf8'), path);
  } catch (error) {
    throw new InputError(`--overlay ${path}: ${faultText(error)}`, { file: shownPath(path), line: 1 });
  }
}

