// The History view: one item per sent request, newest first. Items are built from the entries the
// controller already read; the tree does no I/O of its own.
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/history';
import { formatBytes, formatCountOf, formatDuration } from '../../core/results/format';
import { walkSentence, walkVerdictShort } from '../../core/results/walkWords';
import { pathOf } from '../../core/http/url';
import { COMMANDS } from '../commandIds';

export interface HistoryNode {
  readonly kind: 'historyEntry';
  readonly entry: HistoryEntry;
}

export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private entries: readonly HistoryEntry[] = [];

  constructor(private readonly load: () => Promise<readonly HistoryEntry[]>) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** The entries as last listed (newest first), for tests and pickers. */
  get shown(): readonly HistoryEntry[] {
    return this.entries;
  }

  async getChildren(node?: HistoryNode): Promise<HistoryNode[]> {
    if (node) return [];
    this.entries = await this.load();
    return this.entries.map((entry) => ({ kind: 'historyEntry', entry }));
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const { entry } = node;
    const item = new vscode.TreeItem(entryLabel(entry), vscode.TreeItemCollapsibleState.None);
    item.id = entry.id;
    item.description = entryDescription(entry);
    item.tooltip = entryTooltip(entry);
    item.contextValue = entry.source ? 'historyEntrySaveable' : 'historyEntry';
    const failed = entry.fault !== undefined || (entry.response?.status ?? 0) >= 400 || entry.business.verdict === 'failed'
      || (entry.walk !== undefined && entry.walk.verdict !== 'complete');
    item.iconPath = new vscode.ThemeIcon(failed ? 'error' : (entry.driftFindings ?? 0) > 0 ? 'warning' : 'pass');
    item.accessibilityInformation = { label: `${entryLabel(entry)}, ${entryDescription(entry)}` };
    item.command = { command: COMMANDS.openHistoryEntry, title: 'Open Response', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function entryLabel(entry: HistoryEntry): string {
  return entry.name ? `${entry.name} — ${entry.request.method} ${pathOf(entry.request.url)}` : `${entry.request.method} ${pathOf(entry.request.url)}`;
}

export function entryDescription(entry: HistoryEntry): string {
  const when = new Date(entry.time);
  const time = Number.isNaN(when.getTime()) ? entry.time : when.toLocaleTimeString();
  const outcome = entry.response ? String(entry.response.status) : 'no response';
  return [outcome, entry.walk ? walkVerdictShort(entry.walk) : undefined, time, entry.environment].filter(Boolean).join(' · ');
}

function entryTooltip(entry: HistoryEntry): vscode.MarkdownString {
  const lines = [`**${entry.request.method}** ${entry.request.url}`, ''];
  if (entry.environment) lines.push(`Environment: ${entry.environment}`);
  if (entry.response) {
    const r = entry.response;
    lines.push(`Status: ${r.status} ${r.statusText}`, `Time: ${formatDuration(r.totalMs)}`, `Size: ${formatBytes(r.sizeBytes)}`);
    if (r.bodyNote) lines.push(`Body: ${r.bodyNote}`);
  }
  if (entry.fault) lines.push(`No response: ${entry.fault}`);
  lines.push(`Business verdict: ${entry.business.verdict === 'none' ? 'no business-error convention' : entry.business.verdict}${entry.business.codes?.length ? ` (codes ${entry.business.codes.join(', ')})` : ''}`);
  // A Send is one page; "All pages" is a walk, with its verdict: the list, this and the reopened panel agree.
  lines.push(entry.walk ? `All pages: ${walkSentence(entry.walk)}${entry.walk.file ? ` Rows in ${entry.walk.file}.` : ''}` : 'One page (Send; not a walk of every page)');
  if (entry.driftFindings !== undefined) lines.push(`Contract drift: ${entry.driftFindings === 0 ? 'none' : formatCountOf(entry.driftFindings, 'finding')}`);
  const markdown = new vscode.MarkdownString(lines.join('  \n'));
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}
