// Compare Environments…: the request under the cursor (or a CodeLens / Requests view target, a History
// entry's request, or every request of a collection file or folder) sent in the active environment and
// compared with another side the user picks — another environment (sent there too) or a baseline
// directory `apiwb compare --baseline DIR` wrote (side A, the recorded before; the active environment is
// side B) — first page or every page, record by record by the core (src/core/compare: the same side
// exchange and comparison as `apiwb compare`).
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
import type { RecordDifference } from '../../core/compare/partitioned';
import { countsLine, type RequestComparison, type SideSummary } from '../../core/compare/requestComparison';
import { runSideExchange } from '../../core/compare/sideExchange';
import { environmentNamed, type Environment } from '../../core/env';
import { openFileSink, redactingSink } from '../../core/export';
import { parseHttpFile } from '../../core/httpfile';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { processEnvironment } from '../workspaceTrust';
import { Redactor, knownSecretValues } from '../../core/secrets';
import { ScopedSecretStore } from '../credentials/scopedSecretStore';
import type { EnvironmentController } from '../environments/environmentController';
import type { RequestsNode } from '../requests/requestsTree';
import type { SendTarget } from '../send/sendController';
import { targetOf } from '../send/sendFrom';
import { responseTimeoutMs } from '../settings';
import { MAX_SHOWN, type CompareView, type CompareViewRecord, type CompareViewSummary } from './compareHtml';
import { ComparePanel } from './comparePanel';

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

/** A request's name, or its place. */
function labelIn(parsed: ReturnType<typeof parseHttpFile>, at: SendTarget): string {
  return parsed.requests.find((r) => r.index === at.requestIndex)?.name ?? `request ${at.requestIndex + 1}`;
}

async function labelOf(at: SendTarget): Promise<string> {
  return labelIn(parseHttpFile((await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri))).getText()), at);
}

/** What a comparison ended with (the extension-host tests read it): one comparison a request compared. */
export interface CompareOutcome {
  readonly comparison: RequestComparison;
  readonly comparisons: readonly RequestComparison[];
  readonly stopped: boolean;
}

/** The other side: an environment sent to, or a recorded baseline. */
type OtherSide = { readonly environment: Environment } | { readonly baseline: string };

/** One comparison under way: what was chosen, and what the panel shows so far. */
interface Run {
  readonly other: OtherSide;
  readonly pages: boolean;
  readonly key: string;
  readonly active: Environment;
  readonly abort: AbortController;
  readonly total: number;
  readonly redactor: Redactor;
  readonly temp: string;
  readonly summaries: CompareViewSummary[];
  readonly records: CompareViewRecord[];
  differing: number;
  readonly view: (state: CompareView['state'], progress?: string) => CompareView;
}

export interface CompareChoices {
  readonly environment?: string;
  /** A baseline directory instead of another environment. */
  readonly baseline?: string;
  readonly allPages?: boolean;
  readonly key?: string;
}

export class CompareController implements vscode.Disposable {
  private running: AbortController | undefined;
  private pairs: RecordDifference[] = [];
  readonly panel: ComparePanel;

  constructor(private readonly catalog: () => Catalog, private readonly environments: EnvironmentController, private readonly log: (line: string) => void, extensionUri: vscode.Uri) {
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
    const doc = async (value: unknown): Promise<vscode.Uri> => (await vscode.workspace.openTextDocument({ language: 'json', content: value === undefined ? '' : `${JSON.stringify(value, null, 2)}\n` })).uri;
    await vscode.commands.executeCommand('vscode.diff', await doc(pair.before), await doc(pair.after), `${keyText(pair)}: side A ↔ side B`);
  }

  async compareEnvironments(target: SendTarget | RequestsNode | undefined, given: CompareChoices = {}): Promise<CompareOutcome | undefined> {
    const targets = await requestsOf(target);
    const active = this.environments.active;
    if (!targets?.length || !this.environments.envFile || !active) {
      void vscode.window.showWarningMessage(!targets?.length ? 'API Workbench: put the cursor in a request of a .http file (or pick a collection) to compare it.' : 'API Workbench: comparing needs an http-client.env.json and an active environment.');
      return undefined;
    }
    const chosen = await this.choices(active, given);
    if (!chosen) return undefined;
    this.running?.abort();
    const abort = new AbortController();
    this.running = abort;
    this.pairs = [];
    const baseline = 'baseline' in chosen.other ? chosen.other.baseline : undefined;
    const [sideA, sideB] = baseline ? [`baseline ${baseline.split(/[\\/]/).pop() ?? baseline}`, active.name] : [active.name, 'environment' in chosen.other ? chosen.other.environment.name : ''];
    const subject = targets.length === 1 ? await labelOf(targets[0]!) : `${targets.length} requests`;
    const run: Run = {
      ...chosen, active, abort, total: targets.length, redactor: new Redactor(await knownSecretValues(this.environments.allSecrets)),
      temp: await mkdtemp(join(tmpdir(), 'apiwb-compare-')), summaries: [], records: [], differing: 0,
      view: (state, progress) => ({ title: `${subject}: ${sideA} ↔ ${sideB}`, sideA, sideB, state, records: run.records, differing: run.differing, summaries: run.summaries, ...(progress ? { progress } : {}) }),
    };
    this.panel.show(run.view('running', 'side A…'));
    const comparisons: RequestComparison[] = [];
    try {
      for (const [n, at] of targets.entries()) {
        const comparison = abort.signal.aborted ? undefined : await this.compareOne(at, n, run);
        if (!comparison) break;
        comparisons.push(comparison);
        this.log(`compare ${run.redactor.text(`${comparison.label}: ${sideA} ↔ ${sideB}`)}: ${countsLine(comparison.records)}`);
      }
      const stopped = abort.signal.aborted;
      this.panel.show(run.view(stopped ? 'stopped' : 'done', stopped ? `${comparisons.length} of ${targets.length} request${targets.length === 1 ? '' : 's'} compared; what both sides had fetched is kept` : undefined));
      const first = comparisons[0];
      return first ? { comparison: first, comparisons, stopped } : undefined;
    } catch (error) {
      this.panel.show(run.view('failed', run.redactor.text(error instanceof Error ? error.message : String(error))));
      return undefined;
    } finally {
      if (this.running === abort) this.running = undefined;
      await rm(run.temp, { recursive: true, force: true });
    }
  }

  /** The other side, how much, and the key: given (tests) or asked. */
  private async choices(active: Environment, given: CompareChoices): Promise<Pick<Run, 'other' | 'pages' | 'key'> | undefined> {
    const other = await this.pickOther((this.environments.envFile?.names ?? []).filter((n) => n !== active.name), given);
    if (!other) return undefined;
    const pages = given.allPages ?? (await vscode.window.showQuickPick([{ label: 'All pages', description: 'walk every page on both sides', all: true }, { label: 'First page', description: 'one response a side', all: false }], { title: 'Compare Environments: how much' }))?.all;
    if (pages === undefined) return undefined;
    const key = given.key ?? (await vscode.window.showInputBox({ title: 'Compare Environments: the field that identifies a record', prompt: 'Empty: the operation\'s identifying field where the contract names one, else whole records', placeHolder: 'e.g. bookingId' }));
    return key === undefined ? undefined : { other, pages, key: key.trim() };
  }

  /** One request on both sides, compared; undefined when Stop came before there was anything to compare. */
  private async compareOne(at: SendTarget, n: number, run: Run): Promise<RequestComparison | undefined> {
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
          prepare: { environment, credentials, responses: new Map(), dynamic: dynamicVariables({ env: processEnvironment() }), readInclude: async (path) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(document.uri, '..', path))) },
          onSecrets: (values) => run.redactor.addKnownSecrets(values),
          onPage: (p, rows) => this.panel.show(run.view('running', `${step}side ${name.toUpperCase()} (${environment.name}): page ${p} · ${rows} rows`)),
          redact: (text) => run.redactor.text(text),
        }, { http: this.environments.http, catalog: this.catalog(), timeoutMs: responseTimeoutMs(), guard: await this.environments.refreshGuard() });
        return { summary: result.summary, ...(result.responded ? { rowsFile } : {}), ...(result.recordKey ? { recordKey: result.recordKey } : {}) };
      } finally {
        await sink.close();
      }
    };
    const live = 'environment' in run.other ? run.other.environment : undefined;
    // A baseline is side A (the recorded before) and the active environment side B; else the active environment is side A.
    const a = live ? await side(run.active, this.environments.credentials, 'a') : baselineRequest((run.other as { baseline: string }).baseline, label, run.pages);
    // Stopped before side B was asked anything: there is nothing to compare A's rows with.
    if (run.abort.signal.aborted) return undefined;
    const b = live ? await side(live, this.credentialsOf(live), 'b') : await side(run.active, this.environments.credentials, 'b');
    this.panel.show(run.view('running', `${step}comparing records…`));
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

  /** Another environment (given or picked), or a baseline directory (given or chosen in a folder dialog). */
  private async pickOther(others: readonly string[], given: CompareChoices): Promise<OtherSide | undefined> {
    const file = this.environments.envFile;
    if (given.baseline) return { baseline: given.baseline };
    const BASELINE = 'A baseline directory…';
    const name = given.environment ?? (await vscode.window.showQuickPick([...others, BASELINE], { title: `Compare Environments: ${this.environments.active?.name ?? ''} against…`, placeHolder: 'another environment, or a baseline apiwb compare --baseline DIR wrote' }));
    if (name === BASELINE) {
      const [dir] = (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Compare with this baseline' })) ?? [];
      return dir ? { baseline: dir.fsPath } : undefined;
    }
    const environment = name && file ? environmentNamed(file, name) : undefined;
    return environment ? { environment } : undefined;
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
