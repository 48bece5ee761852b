// History in the editor: records each exchange (through the core HistoryStore, which redacts before
// writing), lists it in the History view, and acts on an entry: open its response in the results panel
// from disk (no network), re-run it from its file, copy it as curl, save it to a collection, compare two
// entries (or an entry and the response on screen) in the diff editor, clear everything.
import * as vscode from 'vscode';
import {
  HistoryStore,
  compareDocument,
  directoryHistoryFiles,
  entriesOfRequest,
  type HistoryEntry,
  type HistoryRecord,
  type StoredExchange,
} from '../../core/history';
import type { HttpFile } from '../../core/httpfile/model';
import { toCurl } from '../../core/interop/curl';
import { curlNetworkFlagsOf } from '../../core/interop/curlNetwork';
import type { ResolvedNetwork } from '../../core/http/networkSettings';
import { buildResultsViewModel } from '../../core/results/viewModel';
import type { Redactor } from '../../core/secrets';
import type { HistoryEntry as EarlierResponse } from '../../protocol/webviewMessages';
import type { ResultsPanel } from '../results/ResultsPanel';
import { HistoryTreeProvider, entryLabel, type HistoryNode } from './historyTree';
import { entryTarget } from './entryTarget';
import { COMMANDS } from '../commandIds';
import { pagingState } from '../../core/results/pagingState';
import { walkSentence } from '../../core/results/walkWords';
import { faultText } from '../../core/text/faultText';

/** The paging bar of a reopened walk: its style and verdict, nothing to continue (History is read from disk). */
function walkPaging(walk: NonNullable<HistoryEntry['walk']>): ReturnType<typeof pagingState> {
  const file = walk.file ? ` The rows are in ${walk.file}; the table shows the first page.` : ' The table shows the first page.';
  return pagingState({ style: walk.style ?? 'All pages', pages: walk.pages, rows: walk.rows, canContinue: false, verdict: `${walkSentence(walk)}${file}` });
}

export const COMPARE_SCHEME = 'apiwb-history';

export type HistoryArgument = HistoryNode | HistoryEntry | string | undefined;

export class HistoryController implements vscode.Disposable {
  readonly store: HistoryStore;
  readonly tree: HistoryTreeProvider;
  /** The entry of the response on screen, for "Compare with Current Response". */
  private shownEntryId: string | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** The entries as last read, newest first: the panel asks for earlier responses synchronously. */
  private cache: readonly HistoryEntry[] = [];

  /** The network a re-sent request would go through (set by the workbench): copy as curl adds its flags. */
  network: (() => Promise<ResolvedNetwork>) | undefined;

  constructor(
    /** Per-workspace storage (context.storageUri, else global storage). */
    readonly folder: vscode.Uri,
    redactor: () => Promise<Redactor>,
    private readonly panel: ResultsPanel,
    private readonly saveBlock: (block: string, target?: vscode.Uri) => Promise<vscode.Uri | undefined>,
    private readonly log: (line: string) => void,
  ) {
    this.store = new HistoryStore(directoryHistoryFiles(folder.fsPath, log), redactor);
    this.tree = new HistoryTreeProvider(() => this.list());
    this.list().catch((error: unknown) => log(`history not read: ${faultText(error)}`));
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, { provideTextDocumentContent: (uri) => this.compareText(uri) }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.tree.dispose();
  }

  /** Entries newest first (and the cache the panel reads). */
  async list(): Promise<HistoryEntry[]> {
    const entries = await this.store.list();
    this.cache = entries;
    return entries;
  }

  /** Summaries of the stored responses to the request at `index` of `file` (the file at `uri` as it is now), newest first. */
  earlierOf(uri: string, file: HttpFile, index: number): EarlierResponse[] {
    return entriesOfRequest(this.cache, uri, file, index).flatMap((entry) => {
      const r = entry.response;
      if (!r) return [];
      return [{
        receivedAt: entry.time, method: entry.request.method, url: entry.request.url, status: r.status, statusText: r.statusText,
        totalMs: r.totalMs, sizeBytes: r.sizeBytes, businessFailed: entry.business.verdict === 'failed',
      }];
    });
  }

  /** Records an exchange that is now on screen. Never throws: a history failure must not fail a send. */
  async record(record: HistoryRecord): Promise<HistoryEntry | undefined> {
    try {
      const entry = await this.store.record(record);
      this.cache = [entry, ...this.cache];
      this.shownEntryId = entry.id;
      this.tree.refresh();
      return entry;
    } catch (error) {
      this.log(`history not saved: ${faultText(error)}`);
      return undefined;
    }
  }

  /** Shows a past response in the results panel, read from disk. */
  async open(argument: HistoryArgument): Promise<StoredExchange | undefined> {
    const stored = await this.exchangeOf(argument, 'Open Response');
    if (!stored) return undefined;
    const { entry, response } = stored;
    if (!response) {
      void vscode.window.showWarningMessage(`API Workbench: ${entryLabel(entry)} got no response: ${entry.fault ?? 'no response was stored'}.`);
      return stored;
    }
    const viewModel = buildResultsViewModel({
      requestKey: `history:${entry.id}`,
      id: `history:${entry.id}`,
      title: `${entryLabel(entry)} — from history, ${new Date(entry.time).toLocaleString()}`,
      request: { method: entry.request.method, url: entry.request.url, headers: entry.request.headers },
      response,
      // A walk's entry says its verdict in the bar, as the panel did when the walk ended; a Send is one page.
      ...(entry.walk ? { paging: walkPaging(entry.walk) } : {}),
    });
    const note = entry.response?.bodyNote;
    this.panel.show(note ? { ...viewModel, body: { ...viewModel.body, note: [viewModel.body.note, `From history: ${note}`].filter(Boolean).join(' ') } } : viewModel);
    this.shownEntryId = entry.id;
    return stored;
  }

  /** Sends the entry's request again from the file it was written in (fresh variables and credentials). */
  async rerun(argument: HistoryArgument): Promise<unknown> {
    const entry = await this.entryOf(argument, 'Re-run');
    if (!entry) return undefined;
    const target = await entryTarget(entry, 'Re-run');
    return target ? vscode.commands.executeCommand(COMMANDS.send, target) : undefined;
  }

  /** The stored request as curl; its credentials were redacted before storing, so they become shell variables. */
  async copyAsCurl(argument: HistoryArgument): Promise<string | undefined> {
    const entry = await this.entryOf(argument, 'Copy as curl');
    if (!entry) return undefined;
    const curl = toCurl({ method: entry.request.method, url: entry.request.url, headers: entry.request.headers, ...(entry.request.body !== undefined ? { body: entry.request.body } : {}) }, this.network ? { networkFlags: curlNetworkFlagsOf(await this.network()) } : {});
    await vscode.env.clipboard.writeText(curl.command);
    const note = curl.variables.length ? ` Set ${curl.variables.map((v) => `$${v}`).join(', ')} in your shell first (credentials are never copied).` : '';
    void vscode.window.showInformationMessage(`API Workbench: curl command copied.${note}`);
    return curl.command;
  }

  async saveToCollection(argument: HistoryArgument, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const entry = await this.entryOf(argument, 'Save to Collection');
    if (!entry) return undefined;
    if (!entry.source) {
      void vscode.window.showWarningMessage(`API Workbench: ${entryLabel(entry)} has no request text to save.`);
      return undefined;
    }
    return this.saveBlock(entry.source.endsWith('\n') ? entry.source : `${entry.source}\n`, target);
  }

  /** Removes every entry; asks first unless `confirmed` (the tests' way past the modal). */
  async clear(confirmed = false): Promise<boolean> {
    if (!confirmed) {
      const clear = 'Clear History';
      const choice = await vscode.window.showWarningMessage('API Workbench: remove every request and response of this workspace\'s history?', { modal: true }, clear);
      if (choice !== clear) return false;
    }
    await this.store.clear();
    this.cache = [];
    this.shownEntryId = undefined;
    this.tree.refresh();
    return true;
  }

  /** Opens two entries side by side in the diff editor (older on the left). Picks them when not given. */
  async compare(first?: HistoryArgument, second?: HistoryArgument): Promise<[HistoryEntry, HistoryEntry] | undefined> {
    let a = first === undefined ? undefined : await this.entryOf(first, 'Compare');
    let b = second === undefined ? undefined : await this.entryOf(second, 'Compare');
    if (!a || !b) {
      const picked = await this.pickTwo(a);
      if (!picked) return undefined;
      [a, b] = picked;
    }
    const [older, newer] = a.time <= b.time ? [a, b] : [b, a];
    await vscode.commands.executeCommand(
      'vscode.diff',
      compareUri(older),
      compareUri(newer),
      `${entryLabel(older)} (${shortTime(older)}) ↔ ${entryLabel(newer)} (${shortTime(newer)})`,
      { preview: false },
    );
    return [older, newer];
  }

  /** The entry against the response on screen. */
  async compareWithCurrent(argument: HistoryArgument): Promise<[HistoryEntry, HistoryEntry] | undefined> {
    if (!this.shownEntryId) {
      void vscode.window.showWarningMessage('API Workbench: no response from this workspace\'s history is on screen to compare with.');
      return undefined;
    }
    return this.compare(argument, this.shownEntryId);
  }

  private async compareText(uri: vscode.Uri): Promise<string> {
    const id = /^\/([A-Za-z0-9-]+)\.jsonc$/.exec(uri.path)?.[1];
    const stored = id ? await this.store.exchange(id) : undefined;
    if (!stored) return '// This history entry is no longer stored.\n';
    const { entry, response } = stored;
    return compareDocument({
      label: `${entryLabel(entry)} — ${entry.time}${entry.environment ? ` — ${entry.environment}` : ''}`,
      request: entry.request,
      ...(response ? { response } : {}),
      ...(entry.fault ? { fault: entry.fault } : {}),
      ...(entry.response?.bodyNote ? { bodyNote: entry.response.bodyNote } : {}),
    });
  }

  private async pickTwo(preset: HistoryEntry | undefined): Promise<[HistoryEntry, HistoryEntry] | undefined> {
    const entries = await this.store.list();
    if (entries.length < 2) {
      void vscode.window.showWarningMessage('API Workbench: the history needs two entries to compare.');
      return undefined;
    }
    const items = entries.filter((e) => e.id !== preset?.id).map((entry) => ({ label: entryLabel(entry), description: `${entry.response?.status ?? 'no response'} · ${entry.time}`, entry }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Compare History Entries',
      placeHolder: preset ? `Compare ${entryLabel(preset)} with…` : 'Pick two entries',
      canPickMany: !preset,
    });
    if (!picked) return undefined;
    const chosen: (HistoryEntry | undefined)[] = Array.isArray(picked) ? (picked as { entry: HistoryEntry }[]).map((p) => p.entry) : [preset, (picked as { entry: HistoryEntry }).entry];
    const [x, y] = chosen;
    if (chosen.length !== 2 || !x || !y) {
      void vscode.window.showWarningMessage('API Workbench: pick exactly two entries to compare.');
      return undefined;
    }
    return [x, y];
  }

  private async entryOf(argument: HistoryArgument, action: string): Promise<HistoryEntry | undefined> {
    if (argument && typeof argument === 'object') return 'kind' in argument ? argument.entry : argument;
    if (typeof argument === 'string') {
      const found = await this.store.get(argument);
      if (!found) void vscode.window.showWarningMessage('API Workbench: that history entry is no longer stored.');
      return found;
    }
    const entries = await this.store.list();
    const pick = await vscode.window.showQuickPick(
      entries.map((entry) => ({ label: entryLabel(entry), description: `${entry.response?.status ?? 'no response'} · ${entry.time}`, entry })),
      { title: `History: ${action}`, placeHolder: entries.length ? 'Entry' : 'The history is empty' },
    );
    return pick?.entry;
  }

  private async exchangeOf(argument: HistoryArgument, action: string): Promise<StoredExchange | undefined> {
    const entry = await this.entryOf(argument, action);
    if (!entry) return undefined;
    const stored = await this.store.exchange(entry.id);
    if (!stored) void vscode.window.showWarningMessage('API Workbench: that history entry is no longer stored.');
    return stored;
  }
}

function compareUri(entry: HistoryEntry): vscode.Uri {
  return vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${entry.id}.jsonc` });
}

function shortTime(entry: HistoryEntry): string {
  const when = new Date(entry.time);
  return Number.isNaN(when.getTime()) ? entry.time : when.toLocaleTimeString();
}
