// The questions Compare Environments… asks, each answered by the caller when given (the tests) or by
// a quick pick: the other side (another environment, a stored response of this request from History,
// a baseline directory), how much (first page or all pages: not asked against a stored response, which
// is one page), and the field that identifies a record. On a History entry: another stored response of
// the same request (no network), the request sent now, or the environments.
import * as vscode from 'vscode';
import { environmentNamed, type Environment, type EnvFile } from '../../core/env';
import type { HistoryEntry } from '../../core/history';

export interface CompareChoices {
  readonly environment?: string;
  /** A baseline directory instead of another environment. */
  readonly baseline?: string;
  /**
   * A History entry's id: its stored response is the other side. On a request, against the request sent
   * now; on a History entry, against that entry's stored response (nothing is sent).
   */
  readonly history?: string;
  readonly allPages?: boolean;
  readonly key?: string;
}

/** The other side: an environment sent to, a recorded baseline, or a History entry's stored response. */
export type OtherSide = { readonly environment: Environment } | { readonly baseline: string } | { readonly history: string };

/** When a stored response was received, as the picks and the panel name it. */
export function storedWhen(entry: HistoryEntry): string {
  const when = new Date(entry.time);
  return Number.isNaN(when.getTime()) ? entry.time : when.toLocaleString();
}

type Picked = { readonly kind: 'environment'; readonly name: string } | { readonly kind: 'history'; readonly id: string } | { readonly kind: 'baseline' };

function storedItem(entry: HistoryEntry): vscode.QuickPickItem & { readonly other: Picked } {
  const status = entry.response ? `HTTP ${entry.response.status}` : 'no response';
  return { label: `$(history) stored ${storedWhen(entry)}`, description: [status, entry.environment].filter(Boolean).join(' · '), other: { kind: 'history', id: entry.id } };
}

const separator = (label: string): vscode.QuickPickItem => ({ label, kind: vscode.QuickPickItemKind.Separator });

/**
 * Another environment, a stored response of the request (`stored`: its History entries, newest first) or
 * a baseline directory: given, or picked.
 */
export async function pickOther(envFile: EnvFile | undefined, active: string, stored: readonly HistoryEntry[], given: CompareChoices): Promise<OtherSide | undefined> {
  if (given.baseline) return { baseline: given.baseline };
  if (given.history) return { history: given.history };
  if (given.environment === undefined) {
    const environments = (envFile?.names ?? []).filter((n) => n !== active).map((name): vscode.QuickPickItem & { readonly other: Picked } => ({ label: name, description: 'sent there too', other: { kind: 'environment', name } }));
    const items = [
      ...(environments.length ? [separator('environments'), ...environments] : []),
      ...(stored.length ? [separator('stored responses of this request (History)'), ...stored.map(storedItem)] : []),
      separator('recorded'),
      { label: 'A baseline directory…', description: 'apiwb compare --baseline DIR wrote it', other: { kind: 'baseline' } as Picked },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: `Compare Environments: ${active} against…`, placeHolder: 'another environment, a stored response, or a baseline' });
    if (!picked || !('other' in picked)) return undefined;
    const other = picked.other;
    if (other.kind === 'baseline') {
      const [dir] = (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Compare with this baseline' })) ?? [];
      return dir ? { baseline: dir.fsPath } : undefined;
    }
    return other.kind === 'history' ? { history: other.id } : otherEnvironment(envFile, other.name);
  }
  return otherEnvironment(envFile, given.environment);
}

function otherEnvironment(envFile: EnvFile | undefined, name: string): OtherSide | undefined {
  const environment = envFile ? environmentNamed(envFile, name) : undefined;
  return environment ? { environment } : undefined;
}

/** First page or all pages (one page against a stored response), and the key: given or asked. */
export async function pickPagesAndKey(other: OtherSide, given: CompareChoices): Promise<{ pages: boolean; key: string } | undefined> {
  const pages = 'history' in other ? false : given.allPages ?? (await vscode.window.showQuickPick([{ label: 'All pages', description: 'walk every page on both sides', all: true }, { label: 'First page', description: 'one response a side', all: false }], { title: 'Compare Environments: how much' }))?.all;
  if (pages === undefined) return undefined;
  const key = given.key ?? (await vscode.window.showInputBox({ title: 'Compare Environments: the field that identifies a record', prompt: 'Empty: the operation\'s identifying field where the contract names one, else whole records', placeHolder: 'e.g. bookingId' }));
  return key === undefined ? undefined : { pages, key: key.trim() };
}

/** What to compare a History entry with: the request sent now, another stored response of it, or an environment. */
export type EntryChoice = { readonly now: true } | { readonly history: string } | { readonly environment: string } | { readonly baseline: string };

export async function pickForEntry(entry: HistoryEntry, others: readonly HistoryEntry[], envNames: readonly string[], active: string | undefined, given: CompareChoices): Promise<EntryChoice | undefined> {
  if (given.history) return { history: given.history };
  if (given.baseline) return { baseline: given.baseline };
  if (given.environment) return { environment: given.environment };
  const live = entry.origin && active ? [separator('sent now'), { label: `$(play) now, in ${active}`, description: 'send the request again and compare with this stored response', choice: { now: true } as EntryChoice }] : [];
  const stored = others.map((e) => ({ ...storedItem(e), choice: { history: e.id }, detail: 'nothing is sent' }));
  const environments = entry.origin ? envNames.filter((n) => n !== active).map((name) => ({ label: name, description: `sent in ${active ?? 'the active environment'} and there`, choice: { environment: name } })) : [];
  const items = [...live, ...(stored.length ? [separator('other stored responses of this request'), ...stored] : []), ...(environments.length ? [separator('environments'), ...environments] : [])];
  if (items.length === 0) {
    void vscode.window.showWarningMessage('API Workbench: this entry was not sent from a file and History holds no other response of its request to compare it with.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'Compare this stored response with…' });
  return picked && 'choice' in picked ? picked.choice : undefined;
}
