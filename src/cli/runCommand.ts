// `apiwb run`: runs the requests of .http files in file order against an environment of
// http-client.env.json, signing in on demand from APIWB_SECRET_* variables, and prints one redacted
// summary line per request. Exit codes: 0 all good, 1 any HTTP (>= 400) or business failure, 2 usage or
// input error (the message names the file and line).
//
// This file is the run itself: the ports made, then each request through the core's exchange in order.
// Its parts: ./runArguments.ts (command line, help), ./runPlan.ts (what runs, checked before sending),
// ./runOverlap.ts (what may overlap), ./runResume.ts (--resume and its record), ./runOutput.ts (outcomes).
import { CredentialService } from '../core/auth/credentials';
import type { RowSink } from '../core/export';
import { keptAsideNotes } from '../core/export/fileSink';
import { EnvFileError, type Environment } from '../core/env/model';
import { assertNoPlaceholders } from '../core/env/placeholders';
import type { Catalog } from '../core/catalog';
import { closeHttpAgents } from '../core/http/client';
import type { NamedResponse } from '../core/httpfile/resolve';
import { dynamicVariables } from '../core/run/dynamicVariables';
import type { WalkCheckpoint } from '../core/paging/checkpoint';
import type { PageEvent, WalkProgress } from '../core/paging/walker';
import { QuotaBook } from '../core/http/serverWaits';
import { walkProgressWords } from '../core/results/walkProgress';
import { DISCARD, sendOptionsOf, type ExchangeInput, type ExchangePorts } from '../core/run/exchange';
import { exchangeInRun, readiedAhead, type RunInput } from './overlapPort';
import { SecretBindings } from '../core/secrets/bindings';
import { contractDriftStep } from '../core/contract';
import { Redactor } from '../core/secrets/redact';
import type { SecretVariables } from '../core/secrets/secretVariables';
import type { SecretStore } from '../core/secrets';
import { terminalSafe } from '../core/text/terminalText';
import { bindEnvironmentSecrets, EnvironmentSecretStore, secretValuesFromEnvironment } from './nodePorts/envSecretStore';
import { collectRequestFiles, findEnvFile, InputError, shownPath } from './nodePorts/files';
import { assertionSteps } from '../core/run/assertions';
import { writeRunReport } from './reporters/runReport';
import { createProgress, progressText } from './reporters/progress';
import { commandFiles } from './keptPlaces';
import { loadRunEnvironment, type RunEnvironment } from './privateEnvRun';
import { formatOutcome, formatTotals } from './reporters/summary';
import { lineWriter } from './reporters/lineWriter';
import { sendOrder, type RequestHooks } from './sendOrder';
import { openRunNetwork } from './runNetwork';
import type { Subcommand } from './subcommands';
import type { Mutable } from '../core/mutable';
import { parseRunArgs, RUN_EXIT, RUN_HELP, type RunIo, type RunOptions } from './runArguments';
import { bodyFileReader, catalogOf, checkPlan, claimOutputs, registerRunInputs, planRequests, withReadLater, type PlannedRequest, type SendCheck } from './runPlan';
import { overlapsNext, preparesAhead, READY_AHEAD_FOR_MS } from './runOverlap';
import { completedRequest, finishedBefore, resumeRecordOf, resumeWords, walkRecord, type ResumeRecordKeeper } from './runResume';
import type { CompletedRequest, ResumeRecord } from './resumeFile';
import { failedWhenResumed, openRunOut, outcomeOf, thrownOutcome, type RunOutcome } from './runOutput';
import { ResponseRows } from './responseRows';
import { sayBeforeRun, sayNotRun, setAsideFailingChecks, setAsideNotRun, type NotRunOutcome } from './notRun';
import { reportInputFault, type RunInputs } from './runFaultReport';
import { faultText } from '../core/text/faultText';
import { onceOnEndingSignal } from '../core/endingSignals';

export const runSubcommand: Subcommand = {
  run: (args) => runCommand(args),
};

export async function runCommand(args: readonly string[], io: RunIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let options: RunOptions | 'help';
  try {
    options = parseRunArgs(args);
  } catch (error) {
    io.stderr.write(`apiwb run: ${terminalSafe(faultText(error))}\nRun 'apiwb run --help' for the options.\n`);
    return RUN_EXIT.usage;
  }
  if (options === 'help') {
    io.stdout.write(RUN_HELP);
    return RUN_EXIT.ok;
  }
  const redactor = new Redactor(secretValuesFromEnvironment(io.env));
  const inputs: RunInputs = { runFiles: commandFiles(), reportClaimed: false };
  try {
    return await execute(options, io, redactor, inputs);
  } catch (error) {
    if (error instanceof InputError || error instanceof EnvFileError) {
      io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(error.message))}\n`);
      // The report asked for is written all the same: CI reads the fault where it reads the results.
      await reportInputFault(options, error, inputs, io, redactor);
      return RUN_EXIT.usage;
    }
    io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(faultText(error)))}\n`);
    return RUN_EXIT.failure;
  } finally {
    await closeHttpAgents();
  }
}

/**
 * Everything before the first send (exit 2 on any input fault, naming file:line): the files, the env file
 * and its environment, the catalog with the overlays, the plan checked request by request, the outputs
 * claimed.
 */
async function prepareRun(options: RunOptions, io: RunIo, redactor: Redactor, inputs: RunInputs): Promise<{ envPath: string; runEnvironment: RunEnvironment; environment: Environment; catalog: Catalog; planned: PlannedRequest[]; notRun: NotRunOutcome[] }> {
  const files = collectRequestFiles(options.paths);
  const envPath = findEnvFile(options.envFile, files);
  const runEnvironment = await loadRunEnvironment(envPath, options.env, { shown: shownPath, redactor, warn: (line) => io.stderr.write(`apiwb run: ${terminalSafe(line)}\n`) });
  const { environment } = runEnvironment;
  inputs.environment = { environment, envPath };
  assertNoPlaceholders(environment, shownPath(envPath));
  // Every file the run reads is an input no output of it may overwrite (src/core/files/outputs.ts).
  const runFiles = inputs.runFiles;
  registerRunInputs(runFiles, files, envPath, options);
  const whole = planRequests(files, options.name);
  sayBeforeRun(whole.requests, 'apiwb run', io.stderr);
  const { notRun, ...plan } = setAsideNotRun(whole, environment.variables, options.name === undefined);
  // The contracts plus the overlays given: one catalog, passed to every exchange (no module singleton).
  const catalog = catalogOf(options.overlays);
  // A request whose check finds a problem is not run (exit 1); the others run.
  const checks = setAsideFailingChecks<Omit<PlannedRequest, 'readLater'>, SendCheck>(plan.requests, checkPlan(plan.requests, environment, options.allPages, catalog, runFiles));
  claimOutputs(runFiles, options);
  inputs.reportClaimed = true;
  const planned = withReadLater({ ...plan, requests: checks.kept }, checks.results.map((checked) => checked.names));
  return { envPath, runEnvironment, environment, catalog, planned, notRun: [...notRun, ...checks.notRun] };
}

async function execute(options: RunOptions, io: RunIo, redactor: Redactor, inputs: RunInputs): Promise<number> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const { envPath, runEnvironment, environment, catalog, planned, notRun } = await prepareRun(options, io, redactor, inputs);

  // Every secret of the run and where it may go, bound before anything is sent: the send boundary's.
  const guard = new SecretBindings();
  for (const line of bindEnvironmentSecrets(guard, io.env, environment, runEnvironment.variables)) io.stderr.write(`apiwb run: ${terminalSafe(line)}\n`);
  const secretStore = runEnvironment.secure(guard, new EnvironmentSecretStore(io.env, undefined, runEnvironment.variables));
  const network = await openRunNetwork(options, environment, envPath, io, secretStore, redactor, inputs.runFiles);
  const http = network.http;
  // One quota book for the run: a quota a response says is spent holds the next request to its origin.
  const ports: ExchangePorts = { http, catalog, timeoutMs: options.timeoutMs, guard, maxWaitMs: options.maxWaitMs, quotas: new QuotaBook(), ...(options.insecure ? { rejectUnauthorized: false } : {}) };
  // Filled once the run's send order exists (below): a sign-in tells it (sendOrder.signingIn).
  const sends: RunSends = { signingIn: () => undefined, idle: () => Promise.resolve() };
  const credentials = runCredentials(options, environment, { http, guard, secretStore, sends, variables: runEnvironment.variables }, io, redactor);
  // Every secret of the run (the APIWB_SECRET_* values, then the tokens handed out): scrubbed from --out.
  const secrets = [...secretValuesFromEnvironment(io.env), ...runEnvironment.privateValues, ...network.secretValues];
  // The run's outcome so far: a run that fails before its first row leaves the --out that was there as it was.
  let allOk = true;
  const { resume, sink } = await openRunOut(options, planned, () => secrets, () => allOk);
  // An old --out an earlier run left aside when it was killed: said, never removed (fileSink.ts).
  if (options.out) for (const note of await keptAsideNotes(options.out)) io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(note))}\n`);
  const progress = createProgress(io.stderr);
  const color = io.stdout.isTTY === true && !io.env.NO_COLOR;
  const out = lineWriter(io.stdout);
  // Ctrl-C or a kill: the lines gathered for a pipe are written first, then the signal ends the process as
  // it would have (the handler is a once-handler, so the second raise meets node's default action).
  const flushThenDie = (signal: NodeJS.Signals): void => {
    out.flush();
    process.kill(process.pid, signal);
  };
  const forgetSignals = onceOnEndingSignal(flushThenDie);
  const responses = new Map<string, NamedResponse>();
  const outcomes: RunOutcome[] = [];
  // --out holds rows of this run (else the file there, with its record, is put back at the end).
  let closed = false;
  const ownsOut = (): boolean => {
    if (!sink) return false;
    return closed ? sink.leftAsItWas?.() !== true : (sink.checkpoint()?.bytes ?? 0) > 0;
  };
  const record = resumeRecordOf(options.out, ownsOut, (text) => io.stderr.write(`${terminalSafe(text)}\n`));
  // The requests finished so far, by their place in the plan: each walk's record names those before it
  // (a --resume skips only those); a resumed run's skipped ones are the record's own.
  const completed: CompletedRequest[] = finishedBefore(resume);
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
      record: (checkpoint) => walkRecord(item, checkpoint, completed.slice(0, i)),
      onProgress: (p) => {
        if (progress.visible) progress.update(progressText(i, planned.length, label, walkProgressWords(p)));
      },
      onPage: (event) => {
        if (progress.visible) progress.update(progressText(i, planned.length, label, walkProgressWords(event.progress)));
        // The checkpoint beside --out after every page kept: a crash or a kill can be resumed too.
        record.page(walkRecord(item, event.checkpoint, completed.slice(0, i)));
      },
    } : undefined, hooks)
      // Whatever one request's response does, the run goes on with the next, this one named as failed.
      .catch((error: unknown): RunOutcome => thrownOutcome(item, label, error, redactor))
      // Known before the next request starts (with --all-pages nothing overlaps): its walk's records name it.
      .then((outcome) => {
        completed[i] = completedRequest(item, outcome);
        return outcome;
      });
  }, (i, bytes) => overlapsNext(planned, i, bytes, options), (i) => {
    // Not while answers take longer than a readied request may wait: it would be made ready twice.
    if (!preparesAhead(planned, i, options) || lastAnswerMs > READY_AHEAD_FOR_MS) return;
    // Its age counts from before its making ready begins (a request without $auth resolves its variables at once).
    const at = performance.now();
    readied.set(i + 1, { input: readiedAhead(exchangeInputOf(planned[i + 1]!, ctx), ports), at });
  });
  sends.signingIn = () => order.signingIn();
  sends.idle = () => order.idle();
  allOk = sayNotRun(notRun, outcomes, (o) => out.write(`${redactor.text(formatOutcome(o, color))}\n`));
  // A request the run being resumed finished is skipped; one that failed there is failed still (no success not seen).
  const skip = (item: PlannedRequest, label: string, done: CompletedRequest | undefined): void => {
    out.write(`· ${terminalSafe(redactor.text(label))}  skipped: its rows were written by the run being resumed\n`);
    if (done?.ok !== false) return;
    const failed = failedWhenResumed(item, label, redactor);
    outcomes.push(failed);
    allOk = false;
    out.write(`${redactor.text(formatOutcome(failed, color))}\n`);
  };
  try {
    for (const [i, item] of planned.entries()) {
      const label = item.node.name ?? item.where;
      if (resume && i < resume.index) {
        skip(item, label, completed[i]);
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
    forgetSignals();
    out.flush();
    progress.clear();
    await sink?.close();
    closed = true;
    await network.close();
  }
  record.finish();
  if (sink && !allOk && sink.leftAsItWas?.()) {
    io.stderr.write(`apiwb run: ${terminalSafe(redactor.text(`--out ${options.out}: ${ctx.cutOff ? 'no row is kept: the rows written were cut off again' : 'no row was written'}; the file that was there is left as it was (none is made where there was none)`))}\n`);
  }
  const elapsed = performance.now() - started;
  io.stdout.write(`${formatTotals(outcomes, elapsed)}\n`);
  if (options.reporter) writeRunReport(options.reporter, options.report, outcomes, { startedAt, durationMs: elapsed }, redactor, io.stdout, { paths: { cwd: process.cwd(), env: io.env } });
  // A checkpoint the walker refused (resumeCheck.ts) is an input fault: nothing was sent for it.
  if (outcomes.some((o) => o.walk?.failure?.kind === 'resume')) return RUN_EXIT.usage;
  return outcomes.every((o) => o.ok) ? RUN_EXIT.ok : RUN_EXIT.failure;
}

/** What a sign-in asks of the run's send order: say it is signing in; wait until no request is on the network. */
interface RunSends {
  signingIn: () => void;
  idle: () => Promise<void>;
}

/** The run's sign-ins: on demand, with the secrets of the process environment, one request on the network at a time. */
function runCredentials(options: RunOptions, environment: Environment, run: { readonly http: ExchangePorts['http']; readonly guard: SecretBindings; readonly secretStore: SecretStore; readonly sends: RunSends; readonly variables: SecretVariables }, io: RunIo, redactor: Redactor): CredentialService {
  const { http, guard, sends } = run;
  return new CredentialService(environment, {
    secrets: run.secretStore,
    send: async (request) => {
      // Never while a request of the run is on the network: a request made ready ahead of its turn
      // (preparesAhead) signs in once the one before it has been answered. With --all-pages nothing is
      // made ready ahead, and a walk's own renewal (between its pages) must not wait for the walk to end.
      if (!options.allPages) await sends.idle();
      // A response waiting for this request's send is examined meanwhile (sendOrder).
      sends.signingIn();
      // --insecure is for the requests' servers only: the token endpoint, where the password goes, needs its own opt-in.
      return http.send(request, sendOptionsOf({ timeoutMs: options.timeoutMs, guard, ...(options.insecureTokenEndpoint ? { rejectUnauthorized: false } : {}) }));
    },
    bindings: guard,
    signInOnDemand: true,
    // A token is handed out only while it outlives a whole response (and a request made ready ahead):
    // one that would not is renewed before the request, with the password the run holds.
    validForMs: options.timeoutMs + READY_AHEAD_FOR_MS,
    missingSecretHint: (authId, field) => run.variables.hint(authId, field),
    onWarning: (authId, text) => io.stderr.write(`apiwb run: warning: ${terminalSafe(redactor.text(`${authId}: ${text}`))}\n`),
  });
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
  /** Rows a request wrote to --out were cut off again (responseRows.ts). */
  cutOff?: boolean;
}

/** What a walk of --all-pages adds for its request: where it resumes, its resume record at a checkpoint, and what each page kept does. */
interface WalkHooks {
  readonly resumeFrom?: WalkCheckpoint;
  readonly record: (checkpoint: WalkCheckpoint) => ResumeRecord;
  readonly onPage: (event: PageEvent) => void;
  readonly onProgress: (progress: WalkProgress) => void;
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
      readInclude: bodyFileReader(item.file),
    },
    pages: ctx.options.allPages ? 'all' : 'first',
    // Only a walk of --all-pages is continued (--resume, from its checkpoint beside --out).
    continuable: ctx.options.allPages,
    steps: [...assertionSteps(item.node), ...(ctx.options.checkContract ? [contractDriftStep('failure')] : [])],
  };
  // Kept only for a later request of the run that reads it by name: a long run does not hold every body.
  if (item.readLater) input.remember = ctx.responses;
  // A single response streams its rows to --out (or is counted) as it arrives: flat memory for any
  // size. Streamed rows are written before business errors are known; the summary line then says so.
  // Assertions, the contract check and a later request reading it by name ({{name.response…}}) read the
  // whole body: the exchange keeps it in a spill file for them and reads it back within the body limit.
  if (!ctx.options.allPages) input.rowsTo = ctx.sink ?? DISCARD;
  return input;
}

/** One request through the core's exchange, read back as a summary line. */
async function runOne(item: PlannedRequest, label: string, ctx: RunContext, readied: RunInput | undefined, hooks: WalkHooks | undefined, overlap?: RequestHooks): Promise<RunOutcome> {
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
  // A single response's rows in --out: its line counts exactly the rows it leaves there (responseRows.ts).
  const rowsOut = !ctx.options.allPages && ctx.sink ? new ResponseRows(ctx.sink) : undefined;
  if (rowsOut) input.rowsTo = rowsOut.sink;
  const { result, waitedMs } = await exchangeInRun(input, ctx.ports, overlap);
  // A single response's rows that were kept (not streamed: see rowsTo) go to --out once it is known good;
  // why they could not is said on the request's own line (its URL resolved), not as a raw error of the run.
  const unwritten = rowsOut ? await rowsOut.writeKept(result) : undefined;
  const inOut = rowsOut ? await rowsOut.settle(result) : undefined;
  if (inOut?.fails && inOut.rows === 0) ctx.cutOff = true;
  const walk = ctx.options.allPages ? result.walk : undefined;
  if (walk && ctx.sink && walk.verdict !== 'complete') {
    // Also when no page was kept by this walk: the file's length so far is where a resume appends.
    const sinkState = ctx.sink.checkpoint();
    ctx.record.ended(walk.resumeAt !== undefined && sinkState && hooks ? hooks.record({ ...walk.checkpoint, sink: sinkState }) : undefined);
  }
  return outcomeOf(item, label, result, { waitedMs, redactor: ctx.redactor, options: ctx.options, unwritten, resume: (w) => resumeWords(w, ctx.options, ctx.record.ownsOut(), ctx.record.keyless()), ...(inOut ? { rowsInOut: inOut } : {}) });
}
