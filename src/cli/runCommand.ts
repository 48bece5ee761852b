// `apiwb run`: runs the requests of .http files in file order against an environment of
// http-client.env.json, signing in on demand from APIWB_SECRET_* variables, and prints one redacted
// summary line per request. Exit codes: 0 all good, 1 any HTTP (>= 400) or business failure, 2 usage or
// input error (the message names the file and line).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { CredentialService } from '../core/auth/credentials';
import { explainAuthFailure, type AuthScheme } from '../core/auth/explain';
import type { RowSink } from '../core/export';
import { parseEnvFile } from '../core/env/loadEnvFile';
import { EnvFileError, type Environment } from '../core/env/model';
import { selectEnvironment } from '../core/env/session';
import { closeHttpAgents, sendRequest } from '../core/http/client';
import { HttpFault, type HttpResponse } from '../core/http/types';
import { parseHttpFile } from '../core/httpfile/parser';
import type { NamedResponse } from '../core/httpfile/resolve';
import type { HttpFile, HttpRequestNode } from '../core/httpfile/model';
import { dynamicVariables } from '../core/run/dynamicVariables';
import { pagingPlanFor } from '../core/run/pagingPlan';
import { checkRequest, prepareRequest } from '../core/run/prepareRequest';
import { Redactor } from '../core/secrets/redact';
import { secretEnvVarName } from '../core/secrets/secretStore';
import { EnvironmentSecretStore, secretValuesFromEnvironment } from './nodePorts/envSecretStore';
import { collectRequestFiles, findEnvFile, InputError } from './nodePorts/files';
import { businessFailuresOf, sharedCatalog } from './reporters/businessFailures';
import { openOutputSink, type OutputFormat } from './reporters/outputSink';
import { createProgress, progressText } from './reporters/progress';
import { formatOutcome, formatTotals, type RequestOutcome } from './reporters/summary';
import { countRows, rowsOf, walkAllPages } from './reporters/pagedRows';
import type { Subcommand } from './subcommands';

export const RUN_EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface RunOptions {
  readonly paths: readonly string[];
  readonly env: string;
  readonly envFile?: string;
  readonly name?: string;
  readonly allPages: boolean;
  readonly out?: string;
  readonly format: OutputFormat;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  readonly insecure: boolean;
}

export interface RunIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const RUN_HELP = `Usage: apiwb run <files or folders...> --env NAME [options]

Runs the requests of .http/.rest files in file order (a folder: its files sorted by path) against an
environment of http-client.env.json, and prints one line per request: name, method, URL (secrets
redacted), status, time, rows and business failures.

Options:
  --env NAME          environment of the env file to use (required)
  --env-file PATH     env file (default: the nearest http-client.env.json above the first file)
  --name REQUEST      run only the request(s) with this # @name
  --all-pages         follow every page with the paging engine (the request's # @paging or the catalog)
  --max-pages N       stop a walk after N pages
  --out FILE          write the result rows to FILE
  --format F          ndjson (default), csv or json; needs --out
  --timeout MS        time allowed for each response (default 30000)
  --insecure          do not verify TLS certificates (off by default; only for a server you trust)
  -h, --help          this help

Secrets come only from environment variables, never from files:
  APIWB_SECRET_<AUTH ID>_<FIELD>   auth id from the env file, upper-cased, non-alphanumerics as _
    PASSWORD      password of a "Type": "OAuth2", "Grant Type": "Password" entry (signs in once per run)
    SERVICE_KEY   service key of an "ApiWorkbench" "Basic+X-API-Key" entry
    TOKEN         a JWT of an "ApiWorkbench" "JWT Bearer" entry
  e.g. APIWB_SECRET_ENGAGEMENT_PASSWORD, APIWB_SECRET_FUNDRAISING_SERVICE_KEY, APIWB_SECRET_FUNDRAISING_USER_TOKEN

Exit codes: 0 every request succeeded; 1 any HTTP status >= 400, business failure inside a 200,
sign-in failure or lost connection; 2 usage or input error (bad option, file, env file or variable).
`;

export const runSubcommand: Subcommand = {
  run: (args) => runCommand(args),
};

export async function runCommand(args: readonly string[], io: RunIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let options: RunOptions | 'help';
  try {
    options = parseRunArgs(args);
  } catch (error) {
    io.stderr.write(`apiwb run: ${message(error)}\nRun 'apiwb run --help' for the options.\n`);
    return RUN_EXIT.usage;
  }
  if (options === 'help') {
    io.stdout.write(RUN_HELP);
    return RUN_EXIT.ok;
  }
  const redactor = new Redactor(secretValuesFromEnvironment(io.env));
  try {
    return await execute(options, io, redactor);
  } catch (error) {
    if (error instanceof InputError || error instanceof EnvFileError) {
      io.stderr.write(`apiwb run: ${redactor.text(error.message)}\n`);
      return RUN_EXIT.usage;
    }
    io.stderr.write(`apiwb run: ${redactor.text(message(error))}\n`);
    return RUN_EXIT.failure;
  } finally {
    await closeHttpAgents();
  }
}

export function parseRunArgs(args: readonly string[]): RunOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      env: { type: 'string' }, 'env-file': { type: 'string' }, name: { type: 'string' },
      'all-pages': { type: 'boolean' }, out: { type: 'string' }, format: { type: 'string' },
      'max-pages': { type: 'string' }, timeout: { type: 'string' }, insecure: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new Error('give at least one .http file or folder');
  if (!values.env) throw new Error('--env NAME is required (an environment of http-client.env.json)');
  const format = values.format ?? formatFromPath(values.out);
  if (format !== 'ndjson' && format !== 'csv' && format !== 'json') throw new Error(`--format must be ndjson, csv or json, not '${format}'`);
  if (values.format && !values.out) throw new Error('--format needs --out FILE');
  return {
    paths: positionals,
    env: values.env,
    ...(values['env-file'] ? { envFile: values['env-file'] } : {}),
    ...(values.name ? { name: values.name } : {}),
    allPages: values['all-pages'] ?? false,
    ...(values.out ? { out: values.out } : {}),
    format,
    ...(values['max-pages'] ? { maxPages: positiveInteger('--max-pages', values['max-pages']) } : {}),
    timeoutMs: values.timeout ? positiveInteger('--timeout', values.timeout) : 30_000,
    insecure: values.insecure ?? false,
  };
}

interface PlannedRequest {
  readonly file: string;
  readonly shown: string;
  readonly parsed: HttpFile;
  readonly node: HttpRequestNode;
  /** `file:line` of the request line, for messages. */
  readonly where: string;
}

async function execute(options: RunOptions, io: RunIo, redactor: Redactor): Promise<number> {
  const started = performance.now();
  const files = collectRequestFiles(options.paths);
  const envPath = findEnvFile(options.envFile, files[0]);
  const environment = selectEnvironment(parseEnvFile(readFileSync(envPath, 'utf8'), shownPath(envPath)), options.env);
  const planned = planRequests(files, options.name);
  for (const item of planned) checkBeforeSending(item, environment, options.allPages);

  const rejectUnauthorized = !options.insecure;
  const send = (request: Parameters<typeof sendRequest>[0]): Promise<HttpResponse> =>
    sendRequest(request, { timeoutMs: options.timeoutMs, rejectUnauthorized });
  const credentials = new CredentialService(environment, {
    secrets: new EnvironmentSecretStore(io.env),
    send,
    signInOnDemand: true,
    missingSecretHint: (authId, field) => `set the environment variable ${secretEnvVarName(authId, field)}`,
  });
  // Every secret of the run (the APIWB_SECRET_* values, then the tokens handed out): scrubbed from --out.
  const secrets = secretValuesFromEnvironment(io.env);
  const sink = options.out ? await openOut(options.out, options.format, () => secrets) : undefined;
  const progress = createProgress(io.stderr);
  const color = io.stdout.isTTY === true && !io.env.NO_COLOR;
  const responses = new Map<string, NamedResponse>();
  const outcomes: RequestOutcome[] = [];
  const ctx: Omit<RunContext, 'onPage'> = { options, environment, credentials, responses, redactor, secrets, send, sink };
  try {
    for (const [i, item] of planned.entries()) {
      const label = item.node.name ?? item.where;
      progress.update(progressText(i, planned.length, label));
      const outcome = await runOne(item, label, { ...ctx,
        onPage: (pages, rows) => progress.update(progressText(i, planned.length, label, `page ${pages} · ${rows} rows`)) });
      progress.clear();
      outcomes.push(outcome);
      io.stdout.write(`${redactor.text(formatOutcome(outcome, color))}\n`);
    }
  } finally {
    progress.clear();
    await sink?.close();
  }
  io.stdout.write(`${formatTotals(outcomes, performance.now() - started)}\n`);
  return outcomes.every((o) => o.ok) ? RUN_EXIT.ok : RUN_EXIT.failure;
}

async function openOut(path: string, format: OutputFormat, secrets: () => readonly string[]): Promise<RowSink> {
  try {
    return await openOutputSink(path, format, secrets);
  } catch (error) {
    throw new InputError(`--out ${path}: ${message(error)}`);
  }
}

function planRequests(files: readonly string[], name: string | undefined): PlannedRequest[] {
  const planned: PlannedRequest[] = [];
  for (const file of files) {
    const shown = shownPath(file);
    const parsed = parseHttpFile(readFileSync(file, 'utf8'));
    const error = parsed.diagnostics.find((d) => d.severity === 'error');
    if (error) throw new InputError(`${shown}:${error.range.start.line + 1}:${error.range.start.character + 1}: ${error.message}`);
    for (const node of parsed.requests) {
      if (name === undefined || node.name === name) planned.push({ file, shown, parsed, node, where: `${shown}:${node.range.start.line + 1}` });
    }
  }
  if (planned.length === 0) {
    throw new InputError(name === undefined ? `no requests in ${files.map(shownPath).join(', ')}` : `no request named '${name}' in ${files.map(shownPath).join(', ')}`);
  }
  return planned;
}

/**
 * Before anything is sent (exit 2, naming file:line): every plain variable defined, every $auth id
 * declared, every `< file` body present, and with --all-pages every `# @paging` directive readable.
 */
function checkBeforeSending(item: PlannedRequest, environment: Environment, allPages: boolean): void {
  const checked = checkRequest(item.parsed, item.node.index, environment);
  if (!checked.ok) throw new InputError(`${item.where}: ${checked.problem}`);
  const include = checked.resolved.bodyInclude;
  if (include && !existsSync(resolvePath(dirname(item.file), include.path))) {
    throw new InputError(`${item.where}: < ${include.path}: no such file next to ${item.shown}`);
  }
  if (allPages) {
    const lookup = pagingPlanFor(checked.resolved, checked.resolved.directives, sharedCatalog());
    if (!lookup.ok) throw new InputError(`${item.where}: ${lookup.error}`);
  }
}

interface RunContext {
  readonly options: RunOptions;
  readonly environment: Environment;
  readonly credentials: CredentialService;
  readonly responses: Map<string, NamedResponse>;
  readonly redactor: Redactor;
  /** Grows as tokens are handed out. */
  readonly secrets: string[];
  readonly send: (request: Parameters<typeof sendRequest>[0]) => Promise<HttpResponse>;
  readonly sink: RowSink | undefined;
  readonly onPage: (pages: number, rows: number) => void;
}

async function runOne(item: PlannedRequest, label: string, ctx: RunContext): Promise<RequestOutcome> {
  const method = item.node.requestLine.method;
  const prepared = await prepareRequest(item.parsed, item.node.index, {
    environment: ctx.environment,
    credentials: ctx.credentials,
    responses: ctx.responses,
    dynamic: dynamicVariables(),
    readInclude: (path) => readFile(resolvePath(dirname(item.file), path), 'utf8'),
  });
  const failed = (problem: string, url: string): RequestOutcome =>
    ({ label, method, url: ctx.redactor.url(url || item.node.requestLine.url), businessFailures: [], problem: ctx.redactor.text(problem), ok: false });
  if (!prepared.ok) return failed(prepared.problem, prepared.url);
  ctx.redactor.addKnownSecrets(prepared.secretValues);
  ctx.secrets.push(...prepared.secretValues.filter((v) => !ctx.secrets.includes(v)));
  const { request, resolved, scheme } = prepared;
  const url = ctx.redactor.url(request.url);

  let response: HttpResponse;
  let rows: number | undefined;
  let pages: number | undefined;
  try {
    if (ctx.options.allPages) {
      const lookup = pagingPlanFor(request, resolved.directives, sharedCatalog());
      if (!lookup.ok) return failed(lookup.error, request.url);
      const walk = await walkAllPages(request, lookup.plan, {
        sink: ctx.sink, timeoutMs: ctx.options.timeoutMs, rejectUnauthorized: !ctx.options.insecure, onPage: ctx.onPage,
        ...(ctx.options.maxPages ? { maxPages: ctx.options.maxPages } : {}),
      });
      if (!walk.lastResponse) return failed(walk.problem ?? 'the walk fetched no page', request.url);
      response = walk.lastResponse;
      rows = walk.rows;
      pages = walk.pages;
      response = { ...response, timing: { ...response.timing, totalMs: walk.elapsedMs } };
      if (walk.problem) return { ...outcomeOf(label, method, url, response, rows, pages, scheme, ctx.redactor), problem: ctx.redactor.text(walk.problem), ok: false };
    } else {
      response = await ctx.send(request);
      rows = countRows(response.bodyText);
    }
  } catch (error) {
    if (error instanceof HttpFault) return failed(error.message, request.url);
    throw error;
  }
  if (resolved.name) ctx.responses.set(resolved.name, { status: response.status, headers: response.headers, bodyText: response.bodyText });
  const outcome = outcomeOf(label, method, url, response, rows, pages, scheme, ctx.redactor);
  if (!ctx.options.allPages && outcome.ok && ctx.sink) await ctx.sink.writePage(rowsOf(response.bodyText));
  return outcome;
}

function outcomeOf(
  label: string, method: string, url: string, response: HttpResponse, rows: number | undefined, pages: number | undefined,
  scheme: AuthScheme, redactor: Redactor,
): RequestOutcome {
  const businessFailures = response.status < 400 ? businessFailuresOf(response.bodyText, method, url).map((f) => redactor.text(f)) : [];
  const explanation = explainAuthFailure({ status: response.status, bodyText: response.bodyText, scheme });
  // A 4xx/5xx body may still say why in one of the business-error conventions (e.g. a 400 with the output model).
  const said = response.status >= 400 && !explanation ? businessFailuresOf(response.bodyText, method, url) : [];
  const problem = explanation
    ? explanation.summary
    : response.status >= 400 ? [response.statusText, said.join('; ')].filter(Boolean).join(': ') || undefined : undefined;
  return {
    label, method, url, status: response.status, totalMs: response.timing.totalMs,
    ...(rows === undefined ? {} : { rows }), ...(pages === undefined ? {} : { pages }),
    businessFailures, ...(problem ? { problem: redactor.text(problem) } : {}),
    ok: response.status < 400 && businessFailures.length === 0,
  };
}

function formatFromPath(path: string | undefined): string {
  if (path && /\.csv$/i.test(path)) return 'csv';
  if (path && /\.json$/i.test(path)) return 'json';
  return 'ndjson';
}

function positiveInteger(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${option} must be a positive integer, not '${text}'`);
  return value;
}

function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
