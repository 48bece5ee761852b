// Compare Environments…: the request under the cursor (or a CodeLens / Requests view target) sent in the
// active environment and in another one the user picks, first page or every page, and compared record
// by record by the core (src/core/compare: the same side exchange and comparison as `apiwb compare`).
// Each side prepares with its own environment and its own credential service over its own scope of
// SecretStorage: side A's secrets never prepare side B's request. Rows wait in temporary files (through
// the redacting sink) and are removed after. The view: comparePanel.ts. Stop keeps what was compared.
import * as vscode from 'vscode';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialService } from '../../core/auth/credentials';
import type { Catalog } from '../../core/catalog';
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
import { MAX_SHOWN, type CompareView, type CompareViewRecord } from './compareHtml';
import { ComparePanel } from './comparePanel';

/** What a comparison ended with (the extension-host tests read it). */
export interface CompareOutcome {
  readonly comparison: RequestComparison;
  readonly stopped: boolean;
}

export interface CompareChoices {
  readonly environment?: string;
  readonly allPages?: boolean;
  readonly key?: string;
}

export class CompareController implements vscode.Disposable {
  private running: AbortController | undefined;
  private pairs: RecordDifference[] = [];
  private readonly panel: ComparePanel;

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
    const at = targetOf(target);
    const file = this.environments.envFile;
    const active = this.environments.active;
    if (!at || !file || !active) {
      void vscode.window.showWarningMessage(!at ? 'API Workbench: put the cursor in a request of a .http file to compare it.' : 'API Workbench: comparing needs an http-client.env.json with two environments.');
      return undefined;
    }
    const others = file.names.filter((n) => n !== active.name);
    const otherName = given.environment ?? (await vscode.window.showQuickPick(others, { title: `Compare Environments: ${active.name} (side A) against…`, placeHolder: 'the other environment (side B)' }));
    const other = otherName ? environmentNamed(file, otherName) : undefined;
    if (!other) return undefined;
    const pages = given.allPages ?? (await vscode.window.showQuickPick([{ label: 'All pages', description: 'walk every page on both sides', all: true }, { label: 'First page', description: 'one response a side', all: false }], { title: 'Compare Environments: how much' }))?.all;
    if (pages === undefined) return undefined;
    const key = given.key ?? (await vscode.window.showInputBox({ title: 'Compare Environments: the field that identifies a record', prompt: 'Empty: the operation\'s identifying field where the contract names one, else whole records', placeHolder: 'e.g. bookingId' }));
    if (key === undefined) return undefined;

    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri));
    const parsed = parseHttpFile(document.getText());
    const node = parsed.requests.find((r) => r.index === at.requestIndex);
    const label = node?.name ?? `request ${at.requestIndex + 1}`;
    this.running?.abort();
    const abort = new AbortController();
    this.running = abort;
    this.pairs = [];
    const redactor = new Redactor(await knownSecretValues(this.environments.allSecrets));
    const title = `${label}: ${active.name} ↔ ${other.name}`;
    const view = (state: CompareView['state'], extra: Partial<CompareView> = {}): CompareView => ({ title, sideA: active.name, sideB: other.name, state, records: [], differing: 0, ...extra });
    this.panel.show(view('running', { progress: 'side A…' }));
    const temp = await mkdtemp(join(tmpdir(), 'apiwb-compare-'));
    try {
      const side = async (environment: Environment, credentials: CredentialService, name: string): Promise<ComparedSide> => {
        const rowsFile = join(temp, `${name}.ndjson`);
        const sink = redactingSink(await openFileSink('ndjson', rowsFile), () => redactor);
        try {
          const result = await runSideExchange({
            file: parsed, requestIndex: at.requestIndex, allPages: pages, sink, signal: abort.signal,
            prepare: { environment, credentials, responses: new Map(), dynamic: dynamicVariables({ env: processEnvironment() }), readInclude: async (path) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(document.uri, '..', path))) },
            onSecrets: (values) => redactor.addKnownSecrets(values),
            onPage: (p, rows) => this.panel.show(view('running', { progress: `side ${name.toUpperCase()} (${environment.name}): page ${p} · ${rows} rows` })),
            redact: (text) => redactor.text(text),
          }, { http: this.environments.http, catalog: this.catalog(), timeoutMs: responseTimeoutMs(), guard: await this.environments.refreshGuard() });
          return { summary: result.summary, ...(result.responded ? { rowsFile } : {}), ...(result.recordKey ? { recordKey: result.recordKey } : {}) };
        } finally {
          await sink.close();
        }
      };
      const a = await side(active, this.environments.credentials, 'a');
      if (abort.signal.aborted) {
        // Stopped before side B was asked anything: there is nothing to compare A's rows with.
        this.panel.show(view('stopped', { progress: `side B (${other.name}) was not sent; side A: ${sideText(a.summary)}` }));
        return undefined;
      }
      const b = await side(other, this.credentialsOf(other), 'b');
      this.panel.show(view('running', { progress: 'comparing records…' }));
      let differing = 0;
      const records: CompareViewRecord[] = [];
      const comparison = await compareSides(label, a, b, {
        ...(key.trim() ? { key: key.trim() } : {}), ignore: [], tempDir: temp,
        onDifference: (d) => {
          differing++;
          if (records.length >= MAX_SHOWN) return;
          records.push({ index: this.pairs.length, kind: d.kind, key: keyText(d), fields: d.fields ?? [] });
          this.pairs.push(d);
        },
      });
      const stopped = abort.signal.aborted;
      this.panel.show(view(stopped ? 'stopped' : 'done', {
        records, differing,
        summary: { a: sideText(comparison.a), b: sideText(comparison.b), counts: countsLine(comparison.records), differs: comparison.differs, differences: comparison.differences },
      }));
      this.log(`compare ${redactor.text(title)}: ${countsLine(comparison.records)}`);
      return { comparison, stopped };
    } catch (error) {
      this.panel.show(view('failed', { progress: redactor.text(error instanceof Error ? error.message : String(error)) }));
      return undefined;
    } finally {
      if (this.running === abort) this.running = undefined;
      await rm(temp, { recursive: true, force: true });
    }
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
