// `apiwb run`: the requests of the plan that cannot be sent are set aside before the run (core/run/notRun.ts
// says why), each said on its own line as not run — with its file, line, reason and tool — and counted as
// failed, so the run exits non-zero while every other request of the file runs.
import type { HttpFile } from '../core/httpfile/model';
import { fileNotRunOf } from '../core/run/assertions';
import { fileProblems, notRunReason, saidBeforeRun, setAsideReason, stoppingDiagnostic, unsentRequestsIn, type NotRunRequest, type RequestReason } from '../core/run/notRun';
import { terminalSafe } from '../core/text/terminalText';
import type { RequestOutcome } from './reporters/summary';
import type { FileWithoutRequests } from './runPlan';

interface Planned {
  readonly shown: string;
  readonly parsed: HttpFile;
  readonly node: HttpFile['requests'][number];
  readonly block: HttpFile['blocks'][number];
  readonly where: string;
  /** The first request of its file in the run: the file's own constructs are said with it (runPlan.ts). */
  readonly saysFile?: boolean;
}

/**
 * What the parser says a run should not pass over in silence — a request line read as the body above it, a
 * directive not acted on as written — printed before anything is sent, for the blocks of the requests run
 * (the language server shows the same diagnostics): `apiwb run` and `apiwb compare` (`command`) alike.
 * The one that is the reason a request is not run is said once, there, at its file:line (setAsideNotRun);
 * a request set aside unsent (`# @disabled`) has no such reason, so all of its are said here.
 */
export function sayBeforeRun(requests: ReadonlyArray<Pick<Planned, 'shown' | 'parsed' | 'block' | 'node'>>, command: string, stderr: { write(text: string): unknown }): void {
  for (const { shown, parsed, block, node } of requests) {
    const reason = setAsideReason(parsed, block) === undefined ? stoppingDiagnostic(parsed, block, node) : undefined;
    for (const d of parsed.diagnostics) {
      const line = d.range.start.line;
      if (d !== reason && line >= block.firstLine && line <= block.lastLine && saidBeforeRun(d)) stderr.write(`${command}: ${terminalSafe(`${shown}:${line + 1}: ${d.severity}: ${d.message}`)}\n`);
    }
  }
}

/** A not-run outcome: the request's (or the file's) line, not sent, with the reason on the summary line and `notRunRequest` for the reports. */
export type NotRunOutcome = RequestOutcome & { readonly notRunRequest: NotRunRequest };

/**
 * `stoppedBy`: the line of the request's block that stops it (a refusing directive, an unreadable line):
 * the summary line names its file:line too, where the words belong (said once: sayBeforeRun leaves it out).
 */
function outcomeOf(given: NotRunRequest & Pick<RequestReason, 'stoppedBy'>, method: string, url: string, item?: Pick<Planned, 'parsed' | 'saysFile'>): NotRunOutcome {
  const { stoppedBy, ...entry } = given;
  const why = stoppedBy ? `stopped by ${entry.file}:${stoppedBy.line}: ${stoppedBy.words}` : entry.reason;
  // Set aside, the first request of its file in the run still says the file's own constructs (once per file run).
  const fileNotRun = item?.saysFile ? fileNotRunOf(item.parsed) : [];
  return {
    ...(fileNotRun.length ? { notRun: fileNotRun } : {}),
    file: entry.file,
    line: entry.line,
    label: entry.name,
    method,
    url,
    businessFailures: [],
    problem: `not run (${entry.tool}) at ${entry.file}:${entry.line}: ${why}`,
    ok: false,
    notRunRequest: entry,
  };
}

/**
 * The plan without the requests that are not run, and one outcome for each of them and for each problem
 * of a file outside its requests (only when the whole file runs: `wholeFiles`) — a file whose requests an
 * unclosed block swallowed included (`withoutRequests`) — in file order.
 */
export function setAsideNotRun<P extends Planned, T extends { readonly requests: readonly P[]; readonly withoutRequests?: readonly FileWithoutRequests[] }>(
  plan: T, environment: Readonly<Record<string, string>>, wholeFiles: boolean,
): T & { readonly requests: P[]; readonly notRun: NotRunOutcome[] } {
  const kept: P[] = [];
  const notRun: NotRunOutcome[] = [];
  const seen = new Set<HttpFile>();
  const sayFile = (shown: string, parsed: HttpFile): void => {
    if (!wholeFiles || seen.has(parsed)) return;
    seen.add(parsed);
    for (const p of fileProblems(parsed)) notRun.push(outcomeOf({ file: shown, line: p.line, name: `${shown}:${p.line}`, reason: p.reason, tool: p.tool }, '', ''));
    for (const block of parsed.blocks) if (!block.request) sayUnsent(shown, block);
  };
  // A request in another tool's form (a curl command) is a request not run, wherever it stands (core/run/notRun.ts).
  const sayUnsent = (shown: string, block: HttpFile['blocks'][number]): void => {
    for (const u of unsentRequestsIn(block)) notRun.push(outcomeOf({ file: shown, line: u.line, name: `${shown}:${u.line}`, reason: u.reason, tool: u.tool }, '', ''));
  };
  const empty = plan.withoutRequests ?? [];
  let nextEmpty = 0;
  // A `# @disabled` first request of its file hands the saying of the file's own constructs to the next one.
  let handedOn: HttpFile | undefined;
  for (const [at, given] of plan.requests.entries()) {
    for (; nextEmpty < empty.length && (empty[nextEmpty]?.before ?? 0) <= at; nextEmpty++) sayFile(empty[nextEmpty]!.shown, empty[nextEmpty]!.parsed);
    const item = handedOn === given.parsed && !given.saysFile ? { ...given, saysFile: true } : given;
    handedOn = undefined;
    sayFile(item.shown, item.parsed);
    // `# @disabled`: not sent, not failed (the run said so before: sayBeforeRun); a curl command in its block with it.
    if (setAsideReason(item.parsed, item.block) !== undefined) {
      if (item.saysFile) handedOn = item.parsed;
      continue;
    }
    sayUnsent(item.shown, item.block);
    const reason = notRunReason(item.parsed, item.block, item.node, environment);
    if (!reason) {
      kept.push(item);
      continue;
    }
    const line = item.node.requestLine.range.start.line + 1;
    notRun.push(outcomeOf({ file: item.shown, line, name: item.node.name ?? item.where, ...reason }, item.node.requestLine.method, item.node.requestLine.url, item));
  }
  for (const file of empty.slice(nextEmpty)) sayFile(file.shown, file.parsed);
  return { ...plan, requests: kept, notRun };
}

/** A check's result without a problem. */
type Passed<R> = Exclude<R, { readonly problem: string }>;

/**
 * The requests whose check before sending finds a problem — a variable not defined, a `< file` body
 * missing, a paging directive that cannot be read — set aside as not run too: that request's problem,
 * not the run's (the others run; the run exits 1). `checks` holds one result a request, in order
 * (runPlan.ts: checkPlan); those of the requests kept come back in their order.
 */
export function setAsideFailingChecks<P extends Planned, R extends { readonly problem?: string | undefined }>(
  requests: readonly P[], checks: readonly R[],
): { kept: P[]; results: Passed<R>[]; notRun: NotRunOutcome[] } {
  const kept: P[] = [];
  const results: Passed<R>[] = [];
  const notRun: NotRunOutcome[] = [];
  for (const [i, item] of requests.entries()) {
    const result = checks[i]!;
    const problem = result.problem;
    if (problem === undefined) {
      results.push(result as Passed<R>);
      kept.push(item);
      continue;
    }
    const line = item.node.requestLine.range.start.line + 1;
    notRun.push(outcomeOf({ file: item.shown, line, name: item.node.name ?? item.where, reason: problem, tool: 'API Workbench' }, item.node.requestLine.method, item.node.requestLine.url, item));
  }
  return { kept, results, notRun };
}

/** Each not-run outcome printed (`write`) and counted among the run's; returns whether the run is still all good. */
export function sayNotRun(notRun: readonly NotRunOutcome[], outcomes: RequestOutcome[], write: (outcome: NotRunOutcome) => void): boolean {
  for (const outcome of notRun) {
    write(outcome);
    outcomes.push(outcome);
  }
  return notRun.length === 0;
}
