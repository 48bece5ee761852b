// `apiwb run`: runs the requests of .http files in file order against an environment of
// http-client.env.json, signing in on demand from APIWB_SECRET_* variables, and prints one redacted
// summary line per request. Exit codes: 0 all good, 1 any HTTP (>= 400) or business failure, 2 usage or
// input error (the message names the file and line).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { CredentialService } from '../core/auth/credentials';
import type { RowSink } from '../core/export';
import { parseEnvFile } from '../core/env/loadEnvFile';
import { EnvFileError, type Environment } from '../core/env/model';
import { selectEnvironment } from '../core/env/session';
import { assertNoPlaceholders } from '../core/env/placeholders';
import { CONTRACT_SERVICES, createCatalog, type Catalog } from '../core/catalog';
import { readOverlayFile, withOverlay, type OpenApiImport } from '../core/openapi';
import { closeHttpAgents, DEFAULT_TIMEOUT_MS } from '../core/http/client';
import { parseHttpFile } from '../core/httpfile/parser';
import { referenceNames, type NamedResponse, type ResolvedText } from '../core/httpfile/resolve';
import type { FileVariable, HttpFile, HttpRequestNode, RequestBlock } from '../core/httpfile/model';
import { dynamicVariables } from '../core/run/dynamicVariables';
import { pagingPlanFor } from '../core/run/pagingPlan';
import type { WalkCheckpoint } from '../core/paging/checkpoint';
import type { PageEvent, WalkProgress, WalkResult } from '../core/paging/walker';
import { DEFAULT_MAX_WAIT_MS, QuotaBook } from '../core/http/serverWaits';
import { walkProgressWords, walkSummaryWords } from '../core/results/walkProgress';
import { DISCARD, sendOptionsOf, type ExchangeInput, type ExchangePorts } from '../core/run/exchange';
import { exchangeInRun, readiedAhead, timeInRun, type RunInput } from './overlapPort';
import { SecretBindings } from '../core/secrets/bindings';
import { CONTRACT_STEP, contractDriftStep } from '../core/contract';
import { checkRequest } from '../core/run/prepareRequest';
import { Redactor } from '../core/secrets/redact';
import { secretEnvVarName } from '../core/secrets/secretStore';
import { terminalSafe } from '../core/text/terminalText';
import { bindEnvironmentSecrets, EnvironmentSecretStore, secretValuesFromEnvironment } from './nodePorts/envSecretStore';
import { collectRequestFiles, findEnvFile, InputError } from './nodePorts/files';
import { openOutputSink, type OutputFormat, type OutputOptions } from './reporters/outputSink';
import { assertionResultsOf, assertionSteps, fileNotRunOf, notRunOf, passesWithAssertions } from '../core/run/assertions';
import { writeRunReport, reporterOptions, REPORT_HELP } from './reporters/runReport';
import { createProgress, progressText } from './reporters/progress';
import { readResumeRecord, removeResumeRecord, resumePathFor, resumeRecordRefusal, writeResumeRecord, type ResumeRecord } from './resumeFile';
import { fileFaultWords, RunFiles } from '../core/files/outputs';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';
import { formatOutcome, formatTotals, type RequestOutcome } from './reporters/summary';
import { lineWriter } from './reporters/lineWriter';
import { sendOrder, type RequestHooks } from './sendOrder';
import { NETWORK_HELP, openRunNetwork } from './runNetwork';
import type { Subcommand } from './subcommands';
import type { Mutable } from '../core/mutable';
import { shellQuote } from '../core/interop/shellQuote';

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
  /** All waits on the server of one walk or request together (--max-wait, in seconds on the command line). */
  readonly maxWaitMs: number;
  readonly insecure: boolean;
  /** --insecure-token-endpoint: sign-ins too go without TLS verification (a separate opt-in: a password goes there). */
  readonly insecureTokenEndpoint: boolean;
  /** --csv-raw: CSV cells that start like a formula are written as they are. */
  readonly csvRaw: boolean;
  /** --proxy URL and --cacert FILE (runNetwork.ts). */
  readonly proxy?: string;
  readonly cacert?: readonly string[];
  /** --reporter junit|json|github; --report FILE (github without a file: stdout). */
  readonly reporter?: 'junit' | 'json' | 'github';
  readonly report?: string;
  /** Check each response against its operation's contract; drift fails the request. */
  readonly checkContract: boolean;
  /** Continue the walk cut short into --out from the checkpoint beside it. */
  readonly resume: boolean;
  /** The arguments as given, to name the exact command that resumes. */
  readonly argv: readonly string[];
  /** Overlay files written by `apiwb import-openapi --out`: their operations join the catalog. */
  readonly overlays: readonly string[];
}

export interface RunIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const RUN_HELP = `Usage: apiwb run <files or folders...> --env NAME [options]

Runs the requests of .http/.rest files (a folder: its files sorted by path) one after the other against an
environment of http-client.env.json, and prints one line per request: name, method, URL (secrets
redacted), status, time, rows and business failures. Exit 0 when every request succeeded.

  e.g. apiwb run samples/collections --env sandbox --env-file samples/workspace/http-client.env.json

Options:
  --env NAME          environment of the env file to use (required)
  --env-file PATH     env file (default: the nearest http-client.env.json above the first file)
  --name REQUEST      run only the request(s) with this # @name
  --all-pages         follow every page with the paging engine (the request's # @paging or the catalog)
  --max-pages N       stop a walk after N pages (the walk is then cut short: exit 1)
  --out FILE          write the result rows to FILE; a walk keeps its checkpoint in FILE.apiwb-resume.json
  --resume            continue the walk that was cut short into --out (needs --all-pages and --out,
                      ndjson or csv): appends to FILE from the last page kept, no row twice; the
                      first walk of a run that is not complete keeps the checkpoint, and every
                      request after it runs again
  --format F          ndjson (default), csv or json; needs --out
  --timeout MS        time allowed for one whole response, headers and body, for every request,
                      sign-in and page (default ${DEFAULT_TIMEOUT_MS}); a server that trickles its body is cut off
  --max-wait SECONDS  how long a walk or request may wait in all on a server that asks it to: a 429
                      or 503 with Retry-After (then the same page is asked again), a quota announced
                      spent (RateLimit-Remaining: 0) (default ${DEFAULT_MAX_WAIT_MS / 1000}); past it the walk fails,
                      resumable. A 429 or 503 without Retry-After is not sent again
  --overlay FILE      an OpenAPI overlay written by 'apiwb import-openapi --out' (repeatable): its
                      operations' paging and business errors count like the contract's
  --insecure          do not verify TLS certificates of the requests' servers (off by default; only
                      for a server you trust); sign-ins still verify theirs
  --insecure-token-endpoint
                      do not verify the TLS certificate of the token endpoint either (a password
                      goes there: only for a sign-in server you trust)
  --csv-raw           write CSV cells that start with =, +, -, @, TAB or CR as they are (by default
                      they get a leading ' so that a spreadsheet shows them as text, not formulas)
${NETWORK_HELP}  --check-contract    compare each response with what the contract documents for its operation
                      (fields, types, error codes, paging headers and fields); prints each finding
                      with its JSON path and contract section, and drift fails the request (exit 1)
${REPORT_HELP}  -h, --help          this help

Secrets come only from environment variables, never from files:
  APIWB_SECRET_<AUTH ID>_<FIELD>   auth id from the env file, upper-cased, non-alphanumerics as _
    PASSWORD      password of a "Type": "OAuth2", "Grant Type": "Password" entry (signs in once per run)
    SERVICE_KEY   service key of an "ApiWorkbench" "Basic+X-API-Key" entry
    TOKEN         a JWT of an "ApiWorkbench" "JWT Bearer" entry
  APIWB_SECRET_PROXY_PASSWORD      the proxy user's password (the user in the proxy URL)
  APIWB_SECRET_CLIENT_CERTIFICATE_PASSPHRASE  an "SSLConfiguration" certificate's passphrase
    (per host: APIWB_SECRET_CLIENT_CERTIFICATE_<HOST>_PASSPHRASE)
  e.g. APIWB_SECRET_ENGAGEMENT_PASSWORD, APIWB_SECRET_FUNDRAISING_SERVICE_KEY, APIWB_SECRET_FUNDRAISING_USER_TOKEN

Requests may carry ?? assertions (?? status == 200, ?? header NAME includes TEXT, ?? body $.path >= 1,
?? duration < MS, ?? business ok, ?? business code == N, ?? rows >= 1): each failed one is printed with
file:line, expected and actual. Scripts of other tools (> {% %}, < {% %}, {{ }}, ?? js) are not run and said so.
A status >= 400 is expected only by ?? status == N with that status, a business failure only by
?? business code == N with that code; any other comparison (< 500, exists, !=) expects nothing.

Walks (--all-pages) end with a verdict: complete, cut short (--max-pages), inconsistent (the server's
paging contradicted itself: totals or paging headers changed or vanished, a page, cursor or rows served
again, another page than the one asked for) or failed. Only complete counts as success.

Secrets are bound to origins: a password to its Token URL's origin, a token, service key or Basic
credential to the origins of the environment's URLs. A request that carries one (in its URL, any header
or its body, plain or encoded) to another origin is not sent, and fails naming both origins. A next link
or redirect to another origin goes without every part that carries a credential, and says which; one
with a body or another method than GET, or from https to http, is not followed.

Outputs never overwrite inputs: an --out or --report that is (or links to) a .http file, env file,
overlay or body file of the run, or another output, is refused (exit 2), as is one that is a
symbolic link or a folder. --out replaces an existing file only once the first row is written.
A checkpoint is taken only for the file it was written beside and the request it continues.

Exit codes: 0 every request succeeded (every walk complete); 1 any HTTP status >= 400, business failure
inside a 200, failed assertion, sign-in failure, lost connection, or a walk that is not complete; 2 usage
or input error (bad option, file, env file or variable, a placeholder such as <filled by npm start>).

Requests go one at a time, each once the response before it has arrived whole; what may overlap:
docs/cli-send-order.md.
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
      io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(error.message))}\n`);
      return RUN_EXIT.usage;
    }
    io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(message(error)))}\n`);
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
      'max-pages': { type: 'string' }, timeout: { type: 'string' }, 'max-wait': { type: 'string' }, insecure: { type: 'boolean' },
      'insecure-token-endpoint': { type: 'boolean' }, 'csv-raw': { type: 'boolean' },
      proxy: { type: 'string' }, cacert: { type: 'string', multiple: true },
      reporter: { type: 'string' }, report: { type: 'string' },
      'check-contract': { type: 'boolean' },
      resume: { type: 'boolean' }, overlay: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new Error('give at least one .http file or folder');
  if (!values.env) throw new Error('--env NAME is required (an environment of http-client.env.json)');
  const format = values.format ?? formatFromPath(values.out);
  if (format !== 'ndjson' && format !== 'csv' && format !== 'json') throw new Error(`--format must be ndjson, csv or json, not '${format}'`);
  if (values.format && !values.out) throw new Error('--format needs --out FILE');
  if (values.resume && (!values['all-pages'] || !values.out)) throw new Error('--resume needs --all-pages and --out FILE (the walk it continues)');
  if (values.resume && format === 'json') throw new Error('--resume needs --format ndjson or csv: a JSON array file cannot be appended to');
  return {
    paths: positionals,
    env: values.env,
    ...(values['env-file'] ? { envFile: values['env-file'] } : {}),
    ...(values.name ? { name: values.name } : {}),
    allPages: values['all-pages'] ?? false,
    ...(values.out ? { out: values.out } : {}),
    format,
    ...(values['max-pages'] ? { maxPages: positiveInteger('--max-pages', values['max-pages']) } : {}),
    timeoutMs: values.timeout ? positiveInteger('--timeout', values.timeout) : DEFAULT_TIMEOUT_MS,
    maxWaitMs: values['max-wait'] !== undefined ? wholeNumber('--max-wait', values['max-wait']) * 1000 : DEFAULT_MAX_WAIT_MS,
    insecure: values.insecure ?? false,
    insecureTokenEndpoint: values['insecure-token-endpoint'] ?? false,
    csvRaw: values['csv-raw'] ?? false,
    ...(values.proxy ? { proxy: values.proxy } : {}),
    ...(values.cacert ? { cacert: values.cacert } : {}),
    ...reporterOptions(values.reporter, values.report),
    checkContract: values['check-contract'] ?? false,
    resume: values.resume ?? false,
    argv: args,
    overlays: values.overlay ?? [],
  };
}

export interface PlannedRequest {
  readonly file: string;
  readonly shown: string;
  readonly parsed: HttpFile;
  readonly node: HttpRequestNode;
  /** The block holding the request (its kept constructs are said with it). */
  readonly block: RequestBlock;
  /** `file:line` of the request line, for messages. */
  readonly where: string;
  /** A later request of the run (or a file variable) reads this one's response by its # @name: its body is kept. */
  readonly readLater: boolean;
}

async function execute(options: RunOptions, io: RunIo, redactor: Redactor): Promise<number> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const files = collectRequestFiles(options.paths);
  const envPath = findEnvFile(options.envFile, files[0]);
  const environment = selectEnvironment(parseEnvFile(readFileSync(envPath, 'utf8'), shownPath(envPath)), options.env);
  assertNoPlaceholders(environment, shownPath(envPath));
  // Every file the run reads is an input no output of it may overwrite (src/core/files/outputs.ts).
  const runFiles = new RunFiles();
  for (const file of files) runFiles.input(file, 'the .http file');
  runFiles.input(envPath, 'the env file');
  runFiles.input(join(dirname(envPath), PRIVATE_ENV_FILE_NAME), 'the private env file');
  for (const overlay of options.overlays) runFiles.input(overlay, 'the overlay');
  const plan = planRequests(files, options.name);
  // A request line read as the body above it would otherwise go unnoticed in a terminal.
  for (const item of plan.requests.filter((p, i) => i === 0 || plan.requests[i - 1]!.parsed !== p.parsed)) {
    for (const d of item.parsed.diagnostics.filter((x) => x.code === 'missing-separator')) {
      io.stderr.write(`apiwb run: ${item.shown}:${d.range.start.line + 1}: warning: ${d.message}\n`);
    }
  }
  // The contracts plus the overlays given: one catalog, passed to every exchange (no module singleton).
  const catalog = createCatalog(withOverlay(CONTRACT_SERVICES, options.overlays.map(readOverlay)));
  const includeNames = new Map<string, readonly string[]>();
  const checkedTexts = new Map<string, ResolvedText>();
  const included = plan.requests.map((item) => checkBeforeSending(item, environment, options.allPages, catalog, includeNames, checkedTexts, runFiles));
  checkedTexts.clear();
  claimOutputs(runFiles, options);
  const planned = withReadLater(plan, included);

  // Every secret of the run and where it may go, bound before anything is sent: the send boundary's.
  const guard = new SecretBindings();
  bindEnvironmentSecrets(guard, io.env, environment);
  const secretStore = new EnvironmentSecretStore(io.env);
  const network = await openRunNetwork(options, environment, envPath, io, secretStore, redactor);
  const http = network.http;
  // One quota book for the run: a quota a response says is spent holds the next request to its origin.
  const ports: ExchangePorts = { http, catalog, timeoutMs: options.timeoutMs, guard, maxWaitMs: options.maxWaitMs, quotas: new QuotaBook(), ...(options.insecure ? { rejectUnauthorized: false } : {}) };
  // Set once the run's send order exists (below): a sign-in tells it (sendOrder.signingIn).
  let signingIn = (): void => undefined;
  let untilIdle = (): Promise<void> => Promise.resolve();
  const credentials = new CredentialService(environment, {
    secrets: secretStore,
    send: async (request) => {
      // Never while a request of the run is on the network: a request made ready ahead of its turn
      // (preparesAhead) signs in once the one before it has been answered. With --all-pages nothing is
      // made ready ahead, and a walk's own renewal (between its pages) must not wait for the walk to end.
      if (!options.allPages) await untilIdle();
      // A response waiting for this request's send is examined meanwhile (sendOrder).
      signingIn();
      // --insecure is for the requests' servers only: the token endpoint, where the password goes, needs its own opt-in.
      return http.send(request, sendOptionsOf({ timeoutMs: options.timeoutMs, guard, ...(options.insecureTokenEndpoint ? { rejectUnauthorized: false } : {}) }));
    },
    bindings: guard,
    signInOnDemand: true,
    // A token is handed out only while it outlives a whole response (and a request made ready ahead):
    // one that would not is renewed before the request, with the password the run holds.
    validForMs: options.timeoutMs + READY_AHEAD_FOR_MS,
    missingSecretHint: (authId, field) => `set the environment variable ${secretEnvVarName(authId, field)}`,
    onWarning: (authId, text) => io.stderr.write(`apiwb run: warning: ${terminalSafe(redactor.text(`${authId}: ${text}`))}\n`),
  });
  // Every secret of the run (the APIWB_SECRET_* values, then the tokens handed out): scrubbed from --out.
  const secrets = [...secretValuesFromEnvironment(io.env), ...network.secretValues];
  const resume = options.resume && options.out ? resumePoint(options.out, options.format, planned) : undefined;
  if (options.out && !resume) removeResumeRecord(options.out);
  // The run's outcome so far: a run that fails before its first row leaves the --out that was there as it was.
  let allOk = true;
  const sink = options.out ? await openOut(options.out, options.format, () => secrets, {
    ...(resume?.record.checkpoint.sink ? { resume: resume.record.checkpoint.sink } : {}),
    replaceUnwritten: () => allOk,
    csvFormulas: options.csvRaw ? 'raw' : 'neutralise',
  }) : undefined;
  const progress = createProgress(io.stderr);
  const color = io.stdout.isTTY === true && !io.env.NO_COLOR;
  const out = lineWriter(io.stdout);
  // Ctrl-C or a kill: the lines gathered for a pipe are written first, then the signal ends the process as
  // it would have (the handler is a once-handler, so the second raise meets node's default action).
  const flushThenDie = (signal: NodeJS.Signals): void => {
    out.flush();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', flushThenDie);
  process.once('SIGTERM', flushThenDie);
  const responses = new Map<string, NamedResponse>();
  const outcomes: (RequestOutcome & { walk?: WalkResult })[] = [];
  const record = resumeRecordOf(options.out, (text) => io.stderr.write(`${terminalSafe(text)}\n`));
  const ctx: RunContext = { options, environment, credentials, responses, redactor, secrets, ports, sink, record };
  // Where overlapsNext allows it, a request is sent as soon as the response before it has been received
  // whole, and that response is examined meanwhile (sendOrder). Lines stay in request order.
  // Requests made ready while the one before them was on the network (preparesAhead), and when, until they
  // go; and how long the last request answered took, from its start to its whole response.
  const readied = new Map<number, { readonly input: RunInput; readonly at: number }>();
  let lastAnswerMs = 0;
  const order = sendOrder((i, orderHooks) => {
    const item = planned[i]!;
    const label = item.node.name ?? item.where;
    const early = readied.get(i);
    readied.delete(i);
    // Made ready too long ago (the response before it was slow): made ready again, as it goes.
    const input = early && performance.now() - early.at <= READY_AHEAD_FOR_MS ? early.input : undefined;
    const began = performance.now();
    const hooks: RequestHooks = {
      handedOver: orderHooks.handedOver,
      received: (bytes) => {
        lastAnswerMs = performance.now() - began;
        return orderHooks.received(bytes);
      },
    };
    // The run's context is the same for every request; only a walk of --all-pages has hooks of its own.
    return runOne(item, label, ctx, input, options.allPages ? {
      ...(resume && i === resume.index ? { resumeFrom: resume.record.checkpoint } : {}),
      onProgress: (p) => {
        if (progress.visible) progress.update(progressText(i, planned.length, label, walkProgressWords(p)));
      },
      onPage: (event) => {
        if (progress.visible) progress.update(progressText(i, planned.length, label, walkProgressWords(event.progress)));
        // The checkpoint beside --out after every page kept: a crash or a kill can be resumed too.
        record.page({ version: 1, file: resolvePath(item.file), where: item.where, requestIndex: item.node.index, checkpoint: event.checkpoint });
      },
    } : undefined, hooks)
      // Whatever one request's response does, the run goes on with the next, this one named as failed.
      .catch((error: unknown): RequestOutcome & { walk?: WalkResult } => ({ label, method: item.node.requestLine.method, url: redactor.url(item.node.requestLine.url), businessFailures: [], problem: redactor.text(message(error)), ok: false }));
  }, (i, bytes) => overlapsNext(planned, i, bytes, options), (i) => {
    // Not while answers take longer than a readied request may wait: it would be made ready twice.
    if (!preparesAhead(planned, i, options) || lastAnswerMs > READY_AHEAD_FOR_MS) return;
    // Its age counts from before its making ready begins (a request without $auth resolves its variables at once).
    const at = performance.now();
    readied.set(i + 1, { input: readiedAhead(exchangeInputOf(planned[i + 1]!, ctx), ports), at });
  });
  signingIn = () => order.signingIn();
  untilIdle = () => order.idle();
  try {
    for (const [i, item] of planned.entries()) {
      const label = item.node.name ?? item.where;
      if (resume && i < resume.index) {
        out.write(`· ${terminalSafe(redactor.text(label))}  skipped: its rows were written by the run being resumed\n`);
        continue;
      }
      if (progress.visible) progress.update(progressText(i, planned.length, label));
      const outcome = await order.outcome(i);
      // A walk that did not end complete (or a request that threw mid-walk) holds the record from here on.
      if (options.allPages && outcome.walk?.verdict !== 'complete') record.hold();
      progress.clear();
      outcomes.push(outcome);
      if (!outcome.ok) allOk = false;
      out.write(`${redactor.text(formatOutcome(outcome, color))}\n`);
    }
  } finally {
    process.off('SIGINT', flushThenDie);
    process.off('SIGTERM', flushThenDie);
    out.flush();
    progress.clear();
    await sink?.close();
    await network.close();
  }
  record.finish();
  if (sink && !allOk && sink.checkpoint()?.bytes === 0) io.stderr.write(`apiwb run: --out ${options.out}: no row was written; the file that was there is left as it was\n`);
  const elapsed = performance.now() - started;
  io.stdout.write(`${formatTotals(outcomes, elapsed)}\n`);
  if (options.reporter) writeRunReport(options.reporter, options.report, outcomes, { startedAt, durationMs: elapsed }, redactor, io.stdout);
  // A checkpoint the walker refused (resumeCheck.ts) is an input fault: nothing was sent for it.
  if (outcomes.some((o) => o.walk?.failure?.kind === 'resume')) return RUN_EXIT.usage;
  return outcomes.every((o) => o.ok) ? RUN_EXIT.ok : RUN_EXIT.failure;
}

/** --out, its resume record and --report are claimed before anything is sent: none may be an input, a link or a folder (exit 2). */
function claimOutputs(runFiles: RunFiles, options: RunOptions): void {
  try {
    if (options.out) {
      runFiles.claim(options.out, '--out');
      runFiles.claim(resumePathFor(options.out), "--out's resume record");
    }
    if (options.report) runFiles.claim(options.report, '--report');
  } catch (error) {
    throw new InputError(message(error));
  }
}

/** Responses up to this size are examined (rows counted, business errors) in well under a millisecond. */
const OVERLAPPED_BODY_BYTES = 64 * 1024;

/**
 * THE rule for whether request i+1 goes while response i (of `bytes`) is still examined. Only where
 * nothing i+1 does depends on that examination, and the examination is short enough to go unnoticed in
 * i+1's time (which it shares: one event loop): not with --out or --all-pages (rows are written in
 * request order), not when a later request or a file variable reads response i by name, not when
 * response i has steps (assertions, --check-contract: they read the whole body) or is large, and not
 * when request i+1 asserts its own duration.
 */
export function overlapsNext(planned: readonly Pick<PlannedRequest, 'readLater' | 'node'>[], i: number, bytes: number, options: Pick<RunOptions, 'allPages' | 'out' | 'checkContract'>): boolean {
  const item = planned[i];
  const next = planned[i + 1];
  if (!item || !next || options.allPages || options.out !== undefined || options.checkContract) return false;
  if (item.readLater || item.node.assertions.length > 0 || bytes > OVERLAPPED_BODY_BYTES) return false;
  return !next.node.assertions.some((a) => a.subject === 'duration');
}

/**
 * THE rule for whether request i+1 is made ready (its variables, $auth values, `< file` body) while
 * request i is on the network, to go the moment response i is in: only when nothing of that can depend
 * on response i (no later request nor file variable reads it by name), not when request i asserts its
 * duration (making the next one ready meanwhile could delay reading response i), and not with
 * --all-pages (a walk of many pages leaves its next request the time to be made ready). Nor, in a run,
 * while responses take longer than READY_AHEAD_FOR_MS. A sign-in it needs still waits for response i
 * (SendOrder.idle): one request of the run on the network at a time.
 */
export function preparesAhead(planned: readonly Pick<PlannedRequest, 'readLater' | 'node'>[], i: number, options: Pick<RunOptions, 'allPages'>): boolean {
  const item = planned[i];
  if (!item || planned[i + 1] === undefined || options.allPages || item.readLater) return false;
  return !item.node.assertions.some((a) => a.subject === 'duration');
}

/**
 * A request made ready ahead goes as it was made ready only when its making ready began at most this long
 * before the request does (else it is made ready again then): its time-based values ({{$timestamp}},
 * {{$isoTimestamp}}) are that fresh. About a local server's answer; a run answered more slowly makes no
 * request ready ahead.
 */
export const READY_AHEAD_FOR_MS = 100;

/** Where a --resume run starts: the request of the checkpoint beside --out, found again in this run's plan. */
function resumePoint(out: string, format: OutputFormat, planned: readonly PlannedRequest[]): { index: number; record: ResumeRecord } {
  let record: ResumeRecord;
  try {
    record = readResumeRecord(out);
  } catch (error) {
    throw new InputError(message(error));
  }
  const index = planned.findIndex((p) => resolvePath(p.file) === record.file && p.node.index === record.requestIndex);
  if (index < 0) throw new InputError(`--resume: the checkpoint beside ${out} is for ${record.where}, which this run does not include; give the same files and --name as the run that was cut short`);
  if (!record.checkpoint.sink) throw new InputError(`--resume: the checkpoint beside ${out} does not say how much of the file is kept`);
  // Taken only for the file it was written beside, at a row's end, after the row it saw last; a finished walk is not resumed.
  const refusal = resumeRecordRefusal(record, out) ?? (record.checkpoint.done || !record.checkpoint.next ? 'it says the walk was finished: a finished walk is not resumed' : undefined);
  if (refusal) throw new InputError(`--resume: the checkpoint beside ${out} is not taken: ${refusal}. Nothing was sent; run again without --resume to start the walk over`);
  if (record.checkpoint.sink.format !== format) throw new InputError(`--resume: ${out} was written as ${record.checkpoint.sink.format}, not ${format}; give the same --format`);
  return { index, record };
}

async function openOut(path: string, format: OutputFormat, secrets: () => readonly string[], output: OutputOptions): Promise<RowSink> {
  try {
    return await openOutputSink(path, format, secrets, output);
  } catch (error) {
    throw new InputError(`--out ${path}: ${message(error)}`);
  }
}

/** The requests of a run, in order, and every file variable of its files; which responses are read later comes after the check (withReadLater). */
export function planRequests(files: readonly string[], name: string | undefined): { requests: Omit<PlannedRequest, 'readLater'>[]; fileVariables: FileVariable[] } {
  const planned: Omit<PlannedRequest, 'readLater'>[] = [];
  const parsedFiles: HttpFile[] = [];
  for (const file of files) {
    const shown = shownPath(file);
    const parsed = parseHttpFile(readFileSync(file, 'utf8'));
    const error = parsed.diagnostics.find((d) => d.severity === 'error');
    if (error) throw new InputError(`${shown}:${error.range.start.line + 1}:${error.range.start.character + 1}: ${error.message}`);
    parsedFiles.push(parsed);
    for (const block of parsed.blocks) {
      const node = block.request;
      if (node && (name === undefined || node.name === name)) planned.push({ file, shown, parsed, node, block, where: `${shown}:${node.range.start.line + 1}` });
    }
  }
  if (planned.length === 0) {
    throw new InputError(name === undefined ? `no requests in ${files.map(shownPath).join(', ')}` : `no request named '${name}' in ${files.map(shownPath).join(', ')}`);
  }
  return { requests: planned, fileVariables: parsedFiles.flatMap((f) => f.blocks.flatMap((b) => b.variables)) };
}

/**
 * The plan with readLater: a request's own references, and those of the `<@` file its body includes
 * (`included`: their names; its variables are filled when it is sent). A response read later is kept
 * for the request that reads it.
 */
function withReadLater(plan: ReturnType<typeof planRequests>, included: readonly (readonly string[] | undefined)[]): PlannedRequest[] {
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
 * Before anything is sent (exit 2, naming file:line): every plain variable defined, every $auth id
 * declared, every `< file` body present (a `<@` one readable), and with --all-pages every `# @paging`
 * directive readable. Returns the reference names of a `<@` body's file (they count for readLater),
 * found once a file for the run (`names`, by path); the file's text is not kept.
 */
export function checkBeforeSending(item: Omit<PlannedRequest, 'readLater'>, environment: Environment, allPages: boolean, catalog: Catalog, names: Map<string, readonly string[]>, checkedTexts: Map<string, ResolvedText>, runFiles: RunFiles): readonly string[] | undefined {
  const checked = checkRequest(item.parsed, item.node.index, environment, checkedTexts);
  if (!checked.ok) throw new InputError(`${item.where}: ${checked.problem}`);
  const include = checked.resolved.bodyInclude;
  const includePath = include && resolvePath(dirname(item.file), include.path);
  const shown = include && `<${include.substituteVariables ? '@' : ''} ${include.path}`;
  if (includePath && !existsSync(includePath)) throw new InputError(`${item.where}: ${shown}: no such file next to ${item.shown}`);
  if (includePath) runFiles.input(includePath, `the body file (${shown} of ${item.where})`);
  if (allPages) {
    const lookup = pagingPlanFor(checked.resolved, checked.resolved.directives, catalog);
    if (!lookup.ok) throw new InputError(`${item.where}: ${lookup.error}`);
  }
  if (!include?.substituteVariables || !includePath) return undefined;
  let found = names.get(includePath);
  if (!found) {
    try {
      const bytes = readFileSync(includePath);
      found = bytes.includes('{{') ? referenceNames(bytes.toString('utf8')) : [];
    } catch (error) {
      throw new InputError(`${item.where}: ${shown}: ${message(error)}`);
    }
    names.set(includePath, found);
  }
  return found;
}

interface RunContext {
  readonly options: RunOptions;
  readonly environment: Environment;
  readonly credentials: CredentialService;
  readonly responses: Map<string, NamedResponse>;
  readonly redactor: Redactor;
  /** Grows as tokens are handed out. */
  readonly secrets: string[];
  readonly ports: ExchangePorts;
  readonly sink: RowSink | undefined;
  readonly record: ResumeRecordKeeper;
}

/** What a walk of --all-pages adds for its request: where it resumes, and what each page kept does. */
interface WalkHooks {
  readonly resumeFrom?: WalkCheckpoint;
  readonly onPage: (event: PageEvent) => void;
  readonly onProgress: (progress: WalkProgress) => void;
}

/**
 * The one resume record beside --out. Every page of a walk rewrites it, until a walk of the run ends not
 * complete: that walk's record (or its absence, when it cannot be resumed) is held, and nothing later in the
 * run writes or removes it. A --resume then starts at that walk, cutting --out back to its last page, and
 * runs every request after it again; a later walk can never point --resume past it.
 */
interface ResumeRecordKeeper {
  /** After each page kept (ignored once held). */
  page(record: ResumeRecord): void;
  /** A walk that is not complete: its record, or undefined when it cannot be resumed (ignored once held). */
  ended(record: ResumeRecord | undefined): void;
  /** From now on the record stays as it is. */
  hold(): void;
  /** End of the run: without a held record, every walk was complete and none is left. */
  finish(): void;
}

function resumeRecordOf(out: string | undefined, warn: (text: string) => void): ResumeRecordKeeper {
  let held = false;
  // A record that cannot be written (the disk is full) leaves the one before it, which still resumes:
  // the walk goes on, and the reason is said once.
  let said = false;
  const write = (record: ResumeRecord): void => {
    try {
      writeResumeRecord(out!, record);
    } catch (error) {
      if (!said) warn(`apiwb run: the checkpoint beside ${out} could not be written (${fileFaultWords(error, resumePathFor(out!))}); a --resume goes on from the last one written`);
      said = true;
    }
  };
  return {
    page: (record) => { if (out && !held) write(record); },
    ended: (record) => {
      if (!out || held) return;
      if (record) write(record);
      else removeResumeRecord(out);
    },
    hold: () => { held = true; },
    finish: () => { if (out && !held) removeResumeRecord(out); },
  };
}

/** The run's redactor (every line) and the --out sink's list (every page) learn a request's secret values. */
function learnSecrets(ctx: Pick<RunContext, 'redactor' | 'secrets'>, values: readonly string[]): void {
  ctx.redactor.addKnownSecrets(values);
  for (const value of values) if (!ctx.secrets.includes(value)) ctx.secrets.push(value);
}

/** What the exchange of one request of the run is given, before its order's hooks (see runOne). */
function exchangeInputOf(item: PlannedRequest, ctx: RunContext): Mutable<ExchangeInput> {
  // Set one by one, not spread from conditional literals (see the outcome in runOne).
  const input: Mutable<ExchangeInput> = {
    file: item.parsed,
    requestIndex: item.node.index,
    // Before the request goes: its token echoed in a row must be masked in --out and in every line.
    onSecrets: (values) => learnSecrets(ctx, values),
    prepare: {
      environment: ctx.environment,
      credentials: ctx.credentials,
      responses: ctx.responses,
      dynamic: dynamicVariables(),
      readInclude: (path) => readFile(resolvePath(dirname(item.file), path), 'utf8'),
    },
    pages: ctx.options.allPages ? 'all' : 'first',
    // Only a walk of --all-pages is continued (--resume, from its checkpoint beside --out).
    continuable: ctx.options.allPages,
    steps: [...assertionSteps(item.node), ...(ctx.options.checkContract ? [contractDriftStep('failure')] : [])],
  };
  // Kept only for a later request of the run that reads it by name: a long run does not hold every body.
  if (item.readLater) input.remember = ctx.responses;
  // A single response streams its rows to --out (or is counted) as it arrives: flat memory for any
  // size. Not when a later request reads it by name ({{name.response…}}): that needs its body kept.
  // Streamed rows are written before business errors are known; the summary line then says so.
  // Assertions and the contract check read the whole body: such a response is kept, not streamed.
  if (!ctx.options.allPages && !item.readLater && item.node.assertions.length === 0 && !ctx.options.checkContract) input.rowsTo = ctx.sink ?? DISCARD;
  return input;
}

/** One request through the core's exchange, read back as a summary line. */
async function runOne(item: PlannedRequest, label: string, ctx: RunContext, readied: RunInput | undefined, hooks: WalkHooks | undefined, overlap?: RequestHooks): Promise<RequestOutcome & { walk?: WalkResult }> {
  const method = item.node.requestLine.method;
  const input: RunInput = readied ?? exchangeInputOf(item, ctx);
  if (hooks) {
    input.walk = {
      ...(ctx.sink ? { sink: ctx.sink } : {}),
      ...(ctx.options.maxPages ? { maxPages: ctx.options.maxPages } : {}),
      ...(hooks.resumeFrom ? { resumeFrom: hooks.resumeFrom } : {}),
      onPage: hooks.onPage,
      onProgress: hooks.onProgress,
    };
  }
  const { result, waitedMs } = await exchangeInRun(input, ctx.ports, overlap);
  const url = ctx.redactor.url(result.request?.url ?? (result.prepared.ok ? result.prepared.request.url : result.prepared.url) ?? item.node.requestLine.url);
  const response = result.response;
  // A single response's rows that were kept (not streamed: see rowsTo) go to --out once it is known good.
  let unwritten: string | undefined;
  if (!ctx.options.allPages && result.ok && ctx.sink && result.rows && result.rows.items.length > 0) {
    try {
      await ctx.sink.writePage(result.rows.items);
    } catch (error) {
      // Said on the request's own line (its URL resolved), not as a raw error of the run.
      unwritten = `its rows could not be written to --out (${message(error)})`;
    }
  }
  const walk = ctx.options.allPages ? result.walk : undefined;
  if (walk && ctx.sink && walk.verdict !== 'complete') {
    // Also when no page was kept by this walk: the file's length so far is where a resume appends.
    const sinkState = ctx.sink.checkpoint();
    ctx.record.ended(walk.resumeAt !== undefined && sinkState
      ? { version: 1, file: resolvePath(item.file), where: item.where, requestIndex: item.node.index, checkpoint: { ...walk.checkpoint, sink: sinkState } }
      : undefined);
  }
  const problem = [unwritten, result.problem && walk && walk.verdict !== 'complete' ? `${result.problem}${resumeWords(walk, ctx.options)}` : result.problem, ...result.notices].filter(Boolean).join('; ');
  const redactText = (a: { expected: string; actual: string }): { expected: string; actual: string } => ({ expected: ctx.redactor.text(a.expected), actual: ctx.redactor.text(a.actual) });
  const contract = result.findings.filter((f) => f.step === CONTRACT_STEP);
  const drift = contract.filter((f) => f.severity === 'failure');
  // Set one by one in the order the reports show them, not spread from conditional literals (each
  // property after a spread in a literal is defined through the runtime: every request of a run).
  const outcome = {} as Mutable<RequestOutcome & { walk?: WalkResult }>;
  if (walk) outcome.walk = walk;
  outcome.file = item.shown;
  outcome.line = item.node.range.start.line + 1;
  outcome.label = label;
  outcome.method = method;
  outcome.url = url;
  outcome.assertions = assertionResultsOf(result.findings).map((a) => ({ ...a, ...redactText(a) }));
  // The file's own (request-less) constructs are said with its first request.
  outcome.notRun = [...(item.node === item.parsed.requests[0] ? fileNotRunOf(item.parsed) : []), ...notRunOf(item.block, item.node)].sort((x, y) => x.line - y.line);
  if (response) {
    outcome.status = response.status;
    outcome.totalMs = timeInRun(response, waitedMs);
    // A walk's line has its pages' time and rates instead.
    if (!walk) outcome.serverMs = response.timing.firstByteMs;
  }
  if (result.rows) outcome.rows = result.rows.count;
  if (result.pages !== undefined) outcome.pages = result.pages;
  // A walk's rate, duration and waits; a single page says nothing more than its own line, unless it waited.
  if (walk && (walk.pages > 1 || walk.waits > 0)) outcome.walkSummary = walkSummaryWords(walk);
  outcome.businessFailures = result.businessFailures.map((f) => ctx.redactor.text(f));
  if (problem) outcome.problem = ctx.redactor.text(problem);
  if (drift.length) outcome.drift = drift.map((f) => ctx.redactor.text(f.message));
  if (ctx.options.checkContract) {
    outcome.details = contract.length === 0
      ? ['contract: no drift']
      : [
          ...(drift.length ? [`contract drift: ${drift.length} finding${drift.length === 1 ? '' : 's'}`] : ['contract: no drift']),
          ...contract.map((f) => `  ${f.severity === 'failure' ? 'drift' : 'note'}: ${ctx.redactor.text(f.message)}`),
        ];
  }
  outcome.ok = passesWithAssertions(result) && unwritten === undefined;
  return outcome;
}

/** What continues a walk that is not complete: the exact command, or why it cannot. */
function resumeWords(walk: WalkResult, options: RunOptions): string {
  if (walk.resumeAt !== undefined) {
    if (!options.out) return ` To keep the rows and resume, run again with --out FILE.`;
    const args = options.argv.filter((a) => a !== '--resume');
    return ` To continue from page ${walk.resumeAt}, appending to ${options.out}: apiwb run ${args.map(shellQuote).join(' ')} --resume`;
  }
  return walk.cannotResume ? ` It cannot be resumed: ${walk.cannotResume}.` : '';
}

function readOverlay(path: string): OpenApiImport {
  try {
    return readOverlayFile(readFileSync(path, 'utf8'), path);
  } catch (error) {
    throw new InputError(`--overlay ${path}: ${message(error)}`);
  }
}

function formatFromPath(path: string | undefined): string {
  if (path && /\.csv$/i.test(path)) return 'csv';
  if (path && /\.json$/i.test(path)) return 'json';
  return 'ndjson';
}

function wholeNumber(option: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new Error(`${option} must be a whole number of seconds, not '${text}'`);
  return value;
}

export function positiveInteger(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${option} must be a positive integer, not '${text}'`);
  return value;
}

export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
