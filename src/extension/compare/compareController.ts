// Compare Environments…: the request under the cursor (or a CodeLens / Requests view target, a History
// entry's request, or every request of a collection file or folder) sent in the active environment and
// compared with another side the user picks (comparePicks.ts) — another environment (sent there too), a
// baseline directory `apiwb compare --baseline DIR` wrote, or a stored response of the request from
// History (side A, the recorded before; the active environment is side B, first page) — first page or
// every page, record by record by the core (src/core/compare: the same side exchange and comparison as
// `apiwb compare`; a stored response read by storedSide.ts). On a History entry: that stored response
// against the request sent now, or against another stored response of the same request (no network:
// the older is side A).
// Each side prepares with its own environment and its own credential service over its own scope of
// SecretStorage: side A's secrets never prepare side B's request. Rows wait in temporary files (through
// the redacting sink) and are removed after. The view: comparePanel.ts. Stop keeps what was compared.
import * as vscode from 'vscode';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialService } from '../../core/auth/credentials';
import type { Catalog } from '../../core/catalog';
import { baselineRequest } from '../../core/compare/baseline';
import { compareSides, type ComparedSide } from '../../core/compare/compareSides';
import { storedSide } from '../../core/compare/storedSide';
import type { RecordDifference } from '../../core/compare/partitioned';
import { countsLine, type RequestComparison, type SideSummary } from '../../core/compare/requestComparison';
import { runSideExchange } from '../../core/compare/sideExchange';
import type { Environment } from '../../core/env';
import type { HistoryEntry, HistoryStore, StoredExchange } from '../../core/history';
import { entriesOfRequest, requestIndexNow } from '../../core/history/requestNow';
import type { HttpFile } from '../../core/httpfile/model';
import { openFileSink, redactingSink } from '../../core/export';
import { parseHttpFile, requestLabel } from '../../core/httpfile';
import { jsonText } from '../../core/json/numberText';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { setAsideReason } from '../../core/run/notRun';
import { requestAt } from '../../core/httpfile/resolve';
import { processEnvironment, readIncludedBody } from '../workspaceTrust';
import { Redactor, knownSecretValues } from '../../core/secrets';
import { ScopedSecretStore } from '../credentials/scopedSecretStore';
import type { EnvironmentController } from '../environments/environmentController';
import { entryTarget } from '../history/entryTarget';
import type { RequestsNode } from '../requests/requestsTree';
import type { SendTarget } from '../send/sendController';
import { targetOf } from '../send/sendFrom';
import { responseTimeoutMs } from '../settings';
import { MAX_SHOWN, type CompareView, type CompareViewRecord, type CompareViewSummary } from './compareHtml';
import { ComparePanel } from './comparePanel';
import { pickForEntry, pickOther, pickPagesAndKey, storedWhen, type CompareChoices } from './comparePicks';
import { faultText } from '../../core/text/faultText';

export type { CompareChoices } from './comparePicks';

/** The requests a target names: one request, every request of a collection file, or of a folder's files. */
async function requestsOf(target: SendTarget | RequestsNode | undefined): Promise<SendTarget[] | undefined> {
  if (target && 'kind' in target && (target.kind === 'file' || target.kind === 'folder')) {
    const files = target.kind === 'file' ? [target.uri] : target.files;
    const out: SendTarget[] = [];
    for (const uri of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      for (const request of parseHttpFile(text).requests) out.push({ uri: uri.toString(), requestIndex: request.index });
    }
    return out;
  }
  const at = targetOf(target);
  return at ? [at] : undefined;
}

/**
 * For each target, the request set aside unsent on both sides (`# @disabled`), by the rule `apiwb run`
 * and `apiwb compare` set it aside by (core/run/notRun.ts: setAsideReason), with its words.
 */
async function setAsideOf(targets: readonly SendTarget[]): Promise<Array<SetAside | undefined>> {
  const files = new Map<string, HttpFile>();
  const out: Array<SetAside | undefined> = [];
  for (const at of targets) {
    const parsed = files.get(at.uri) ?? parseHttpFile((await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri))).getText());
    files.set(at.uri, parsed);
    const found = requestAt(parsed, at.requestIndex);
    const reason = found && setAsideReason(parsed, found.block);
    out.push(reason === undefined ? undefined : { label: labelIn(parsed, at), reason });
  }
  return out;
}

/** A request's name, or its place. */
function labelIn(parsed: ReturnType<typeof parseHttpFile>, at: SendTarget): string {
  return requestLabel(parsed, at.requestIndex);
}

async function labelOf(at: SendTarget): Promise<string> {
  return labelIn(parseHttpFile((await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri))).getText()), at);
}

/** What a comparison ended with (the extension-host tests read it): one comparison a request compared, and the requests set aside unsent. */
export interface CompareOutcome {
  readonly comparison: RequestComparison;
  readonly comparisons: readonly RequestComparison[];
  readonly setAside: readonly SetAside[];
  readonly stopped: boolean;
}

/** A request sent on neither side (`# @disabled`), and why, in the words `apiwb compare` says it with (core/run/notRun.ts). */
interface SetAside {
  readonly label: string;
  readonly reason: string;
}

/** One comparison under way: what was chosen, and what the panel shows so far. */
interface Run {
  /** The other side; a stored response is read once, before anything is sent. */
  readonly other: { readonly environment: Environment } | { readonly baseline: string } | { readonly stored: StoredExchange };
  readonly pages: boolean;
  readonly key: string;
  readonly abort: AbortController;
  readonly total: number;
  readonly redactor: Redactor;
  readonly temp: string;
  readonly summaries: CompareViewSummary[];
  readonly records: CompareViewRecord[];
  differing: number;
  readonly view: (state: CompareView['state'], progress?: string) => CompareView;
}

export class CompareController implements vscode.Disposable {
  private running: AbortController | undefined;
  private pairs: RecordDifference[] = [];
  readonly panel: ComparePanel;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly environments: EnvironmentController,
    /** The History store: stored responses as a side (read from disk, redacted when written). */
    private readonly history: () => HistoryStore,
    private readonly log: (line: string) => void,
    extensionUri: vscode.Uri,
  ) {
    this.panel = new ComparePanel(extensionUri);
  }

  dispose(): void {
    this.running?.abort();
    this.panel.dispose();
  }

  stop(): void {
    this.running?.abort();
  }

  /** The pair of a listed difference, side A and side B as JSON, in the diff editor. */
  async openPair(index: unknown): Promise<void> {
    const pair = typeof index === 'number' ? this.pairs[index] : undefined;
    if (!pair) return;
    const doc = async (value: unknown): Promise<vscode.Uri> => (await vscode.workspace.openTextDocument({ language: 'json', content: value === undefined ? '' : `${jsonText(value, 2) ?? 'null'}\n` })).uri;
    await vscode.commands.executeCommand('vscode.diff', await doc(pair.before), await doc(pair.after), `${keyText(pair)}: side A ↔ side B`);
  }

  async compareEnvironments(target: SendTarget | RequestsNode | undefined, given: CompareChoices = {}): Promise<CompareOutcome | undefined> {
    const targets = await requestsOf(target);
    const active = this.environments.active;
    if (!targets?.length || !this.environments.envFile || !active) {
      void vscode.window.showWarningMessage(!targets?.length ? 'API Workbench: put the cursor in a request of a .http file (or pick a collection) to compare it.' : 'API Workbench: comparing needs an http-client.env.json and an active environment.');
      return undefined;
    }
    // Stored responses are offered for one request: a collection has no one History entry.
    const stored = targets.length === 1 ? await this.storedOf(targets[0]!) : [];
    const other = await pickOther(this.environments.envFile, active.name, stored, given);
    const amount = other && (await pickPagesAndKey(other, given));
    if (!other || !amount) return undefined;
    const side = 'history' in other ? await this.stored(other.history) : other;
    if (!side) return undefined;
    const [sideA, sideB] = 'baseline' in side ? [`baseline ${side.baseline.split(/[\\/]/).pop() ?? side.baseline}`, active.name]
      : 'stored' in side ? [storedName(side.stored.entry), `${active.name}, sent now`] : [active.name, side.environment.name];
    const subject = targets.length === 1 ? await labelOf(targets[0]!) : `${targets.length} requests`;
    const aside = await setAsideOf(targets);
    return this.execute({ subject, sideA, sideB, other: side, ...amount }, targets.length, (n, run) => {
      const set = aside[n];
      return set ? Promise.resolve(this.setAside(set, run)) : this.compareOne(targets[n]!, n, run, active);
    });
  }

  /** A request set aside, named in the summary as such (sent on neither side), not as one neither side answered. */
  private setAside(set: SetAside, run: Run): SetAside {
    run.summaries.push({ request: set.label, a: 'not sent', b: 'not sent', counts: '', differs: false, differences: [], setAside: set.reason });
    return set;
  }

  /**
   * On a History entry: its stored response against another stored response of the same request (no
   * network; the older is side A), against the request sent now, or the request on two environments.
   */
  async compareHistoryEntry(entry: HistoryEntry, given: CompareChoices = {}): Promise<CompareOutcome | undefined> {
    const others = (await this.sameRequestAs(entry)).filter((e) => e.id !== entry.id);
    const choice = await pickForEntry(entry, others, this.environments.envFile?.names ?? [], this.environments.active?.name, given);
    if (!choice) return undefined;
    if ('history' in choice) return this.compareStoredPair(entry, choice.history, given);
    const at = await entryTarget(entry, 'Compare Environments…');
    if (!at) return undefined;
    return this.compareEnvironments(at, 'now' in choice ? { ...given, history: entry.id } : { ...given, ...choice });
  }

  /** Two stored responses of one request, record by record; nothing is sent. */
  private async compareStoredPair(entry: HistoryEntry, otherId: string, given: CompareChoices): Promise<CompareOutcome | undefined> {
    const [first, second] = [await this.stored(entry.id), await this.stored(otherId)];
    const amount = first && second && (await pickPagesAndKey({ history: otherId }, given));
    if (!first || !second || !amount) return undefined;
    const [a, b] = first.stored.entry.time <= second.stored.entry.time ? [first.stored, second.stored] : [second.stored, first.stored];
    const label = a.entry.name ?? storedName(a.entry);
    return this.execute({ subject: label, sideA: storedName(a.entry), sideB: storedName(b.entry), other: { stored: a }, ...amount }, 1, async (_n, run) => {
      this.panel.show(run.view('running', 'reading both stored responses…'));
      return this.compareRecords(label, await this.storedSideOf(a, run, 0, 'a'), await this.storedSideOf(b, run, 0, 'b'), run);
    });
  }

  /** A comparison under way: the panel, the log, Stop, and the temporary folder removed after. */
  private async execute(chosen: Pick<Run, 'other' | 'pages' | 'key'> & { subject: string; sideA: string; sideB: string }, total: number, one: (n: number, run: Run) => Promise<RequestComparison | SetAside | undefined>): Promise<CompareOutcome | undefined> {
    this.running?.abort();
    const abort = new AbortController();
    this.running = abort;
    this.pairs = [];
    const { subject, sideA, sideB } = chosen;
    const run: Run = {
      other: chosen.other, pages: chosen.pages, key: chosen.key, abort, total, redactor: new Redactor(await knownSecretValues(this.environments.allSecrets)),
      temp: await mkdtemp(join(tmpdir(), 'apiwb-compare-')), summaries: [], records: [], differing: 0,
      view: (state, progress) => ({ title: subject, sideA, sideB, state, records: run.records, differing: run.differing, summaries: run.summaries, ...(progress ? { progress } : {}) }),
    };
    this.panel.show(run.view('running', 'side A…'));
    const comparisons: RequestComparison[] = [];
    const setAside: SetAside[] = [];
    try {
      for (let n = 0; n < total; n++) {
        const comparison = abort.signal.aborted ? undefined : await one(n, run);
        if (!comparison) break;
        if ('reason' in comparison) {
          setAside.push(comparison);
          this.log(`compare ${run.redactor.text(`${comparison.label}: set aside, ${comparison.reason}`)}`);
          continue;
        }
        comparisons.push(comparison);
        this.log(`compare ${run.redactor.text(`${comparison.label}: ${sideA} ↔ ${sideB}`)}: ${countsLine(comparison.records)}`);
      }
      const stopped = abort.signal.aborted;
      const sent = total - setAside.length;
      this.panel.show(run.view(stopped ? 'stopped' : 'done', stopped ? `${comparisons.length} of ${sent} request${sent === 1 ? '' : 's'} compared; what both sides had fetched is kept` : undefined));
      const first = comparisons[0];
      return first ? { comparison: first, comparisons, setAside, stopped } : undefined;
    } catch (error) {
      this.panel.show(run.view('failed', run.redactor.text(faultText(error))));
      return undefined;
    } finally {
      if (this.running === abort) this.running = undefined;
      await rm(run.temp, { recursive: true, force: true });
    }
  }

  /** One request on both sides, compared; undefined when Stop came before there was anything to compare. */
  private async compareOne(at: SendTarget, n: number, run: Run, active: Environment): Promise<RequestComparison | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri));
    const parsed = parseHttpFile(document.getText());
    const label = labelIn(parsed, at);
    const step = run.total > 1 ? `${label} (${n + 1} of ${run.total}) · ` : '';
    const side = async (environment: Environment, credentials: CredentialService, name: string): Promise<ComparedSide> => {
      const rowsFile = join(run.temp, `${n}-${name}.ndjson`);
      const sink = redactingSink(await openFileSink('ndjson', rowsFile), () => run.redactor);
      try {
        const result = await runSideExchange({
          file: parsed, requestIndex: at.requestIndex, allPages: run.pages, sink, signal: run.abort.signal,
          prepare: { environment, credentials, responses: new Map(), dynamic: dynamicVariables({ env: processEnvironment() }), readInclude: (path, encoding, strict) => readIncludedBody(document.uri, path, encoding, strict) },
          onSecrets: (values) => run.redactor.addKnownSecrets(values),
          onPage: (p, rows) => this.panel.show(run.view('running', `${step}side ${name.toUpperCase()} (${environment.name}): page ${p} · ${rows} rows`)),
          redact: (text) => run.redactor.text(text),
        }, { http: this.environments.http, catalog: this.catalog(), timeoutMs: responseTimeoutMs(), guard: await this.environments.refreshGuard() });
        return { summary: result.summary, ...(result.responded ? { rowsFile } : {}), ...(result.recordKey ? { recordKey: result.recordKey } : {}) };
      } finally {
        await sink.close();
      }
    };
    const { other } = run;
    // A recorded side (a baseline, a stored response) is side A, the recorded before, and the active
    // environment side B; else the active environment is side A.
    const a = 'environment' in other ? await side(active, this.environments.credentials, 'a')
      : 'baseline' in other ? baselineRequest(other.baseline, label, run.pages) : await this.storedSideOf(other.stored, run, n, 'a');
    // Stopped before side B was asked anything: there is nothing to compare A's rows with.
    if (run.abort.signal.aborted) return undefined;
    const b = 'environment' in other ? await side(other.environment, this.credentialsOf(other.environment), 'b') : await side(active, this.environments.credentials, 'b');
    this.panel.show(run.view('running', `${step}comparing records…`));
    return this.compareRecords(label, a, b, run);
  }

  /** The two sides record by record; the differing records listed (the first MAX_SHOWN) and the summary row added. */
  private async compareRecords(label: string, a: ComparedSide, b: ComparedSide, run: Run): Promise<RequestComparison> {
    const comparison = await compareSides(label, a, b, {
      ...(run.key ? { key: run.key } : {}), ignore: [], tempDir: run.temp,
      onDifference: (d) => {
        run.differing++;
        if (run.records.length >= MAX_SHOWN) return;
        run.records.push({ index: this.pairs.length, request: label, kind: d.kind, key: keyText(d), fields: d.fields ?? [] });
        this.pairs.push(d);
      },
    });
    run.summaries.push({ request: label, a: sideText(comparison.a), b: sideText(comparison.b), counts: countsLine(comparison.records), differs: comparison.differs, differences: comparison.differences });
    return comparison;
  }

  /** A stored response as a side: its rows through the run's redacting sink too (History redacted them when it wrote them). */
  private storedSideOf(stored: StoredExchange, run: Run, n: number, name: string): Promise<ComparedSide> {
    return storedSide(stored, this.catalog(), join(run.temp, `${n}-${name}.ndjson`), (sink) => redactingSink(sink, () => run.redactor));
  }

  /** The stored responses of the request at `at` (History entries sent from it, as its file is now; newest first). */
  private async storedOf(at: SendTarget): Promise<HistoryEntry[]> {
    const entries = (await this.history().list()).filter((e) => e.response && e.origin?.file === at.uri);
    const file = entries.length === 0 ? undefined : await this.fileNow(at.uri);
    return file ? entriesOfRequest(entries, at.uri, file, at.requestIndex) : [];
  }

  /**
   * The stored responses of the request `entry` was sent from, found in its file as it is now (newest
   * first; the entry too): none when that request is no longer there (another one may hold its place).
   */
  private async sameRequestAs(entry: HistoryEntry): Promise<HistoryEntry[]> {
    const uri = entry.origin?.file;
    const file = uri === undefined ? undefined : await this.fileNow(uri);
    const index = file && requestIndexNow(file, entry);
    if (!file || uri === undefined || index === undefined) return [];
    return entriesOfRequest((await this.history().list()).filter((e) => e.response), uri, file, index);
  }

  /** A request file's text as it is now, parsed; undefined when it cannot be read (no stored response is offered). */
  private async fileNow(uri: string): Promise<HttpFile | undefined> {
    try {
      return parseHttpFile((await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText());
    } catch {
      return undefined;
    }
  }

  /** A History entry with its stored response, or undefined, said. */
  private async stored(id: string): Promise<{ stored: StoredExchange } | undefined> {
    const stored = await this.history().exchange(id);
    if (stored?.response) return { stored };
    void vscode.window.showWarningMessage(stored ? `API Workbench: ${storedName(stored.entry)} has no stored response to compare (${stored.entry.fault ?? 'none was kept'}).` : 'API Workbench: that History entry is no longer stored.');
    return undefined;
  }

  /** Side B's own credentials: its environment, its scope of SecretStorage; nothing of side A's. */
  private credentialsOf(environment: Environment): CredentialService {
    return new CredentialService(environment, {
      secrets: new ScopedSecretStore(this.environments.allSecrets, () => this.environments.scopeOf(environment.name), (question) => this.environments.confirmAdopt(question)),
      bindings: this.environments.guard,
      send: (request) => this.environments.signInSend(request),
      signInOnDemand: false,
      missingSecretHint: (authId) => `switch to '${environment.name}' and sign in (or set the credentials of '${authId}') first`,
    });
  }
}

/** A stored response as a side is named: `stored 29/11/2026, 10:41:02 (sandbox)`. */
function storedName(entry: HistoryEntry): string {
  return `stored ${storedWhen(entry)}${entry.environment ? ` (${entry.environment})` : ''}`;
}

function keyText(d: RecordDifference): string {
  return d.key === undefined ? '(whole record)' : typeof d.key === 'string' ? d.key : JSON.stringify(d.key);
}

function sideText(s: SideSummary): string {
  const parts = [s.status === undefined ? 'no response' : `HTTP ${s.status}`, `business ${s.business}${s.errorCodes.length ? ` (${s.errorCodes.join(', ')})` : ''}`];
  if (s.walk) parts.push(`walk ${s.walk}`);
  if (s.rows !== undefined) parts.push(`${s.rows} rows`);
  if (s.problem) parts.push(s.problem);
  return parts.join(' · ');
}
