// Tree items every view shares (accessible names), and the Services view's service row. Small on purpose:
// activation (extension.ts) shows the Services view's first rows with these before the catalog loads.
import * as vscode from 'vscode';
import type { ServiceRow } from '../core/catalog/serviceRows';

/** A service row of the Services view, from the catalog's service or its precomputed row (the same fields). */
export function serviceTreeItem(service: ServiceRow): vscode.TreeItem {
  const item = new vscode.TreeItem(service.title, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `service:${service.id}`;
  const release = service.release;
  // The release comes first: the pane is narrow and the contract's release is what a user checks.
  item.description = [...(release ? [release.short] : []), ...service.auth.map(authLabel)].join(' · ');
  // What the contract does not publish: listed in the tooltip, not as rows among the families.
  item.tooltip = new vscode.MarkdownString([
    service.summary,
    ...(release ? ['', '*Release:*', ...release.facts.map((f) => `- ${f}`), `- Source: seed ${release.source.seed}, section ${release.source.section}`] : []),
    ...notShownLines(service.notShown),
  ].join('\n'));
  item.contextValue = 'service';
  item.iconPath = new vscode.ThemeIcon('server-environment');
  return withAccessibleName(item);
}

/** The tooltip lines of what the published contract is silent on, and what to do about it. */
export function notShownLines(notShown: readonly string[]): string[] {
  if (notShown.length === 0) return [];
  return ['', '*Not shown by the contract* (supply it yourself: import an OpenAPI document, or write the request by hand):', ...notShown.map((t) => `- ${t}`)];
}

/**
 * Screen readers (and UI tests) name a row by its string tooltip when it has one; the name should be what
 * the row shows: its label and description, read as one phrase. An item that set its own name keeps it.
 */
export function withAccessibleName(item: vscode.TreeItem): vscode.TreeItem {
  if (item.accessibilityInformation) return item;
  const label = (typeof item.label === 'string' ? item.label : item.label?.label) ?? item.resourceUri?.path.split('/').pop() ?? '';
  item.accessibilityInformation = { label: spokenName(label, typeof item.description === 'string' ? item.description : '') };
  return item;
}

/**
 * "Transaction, 3 operations": the label without a closing full stop or comma (no "not shown., …"), then
 * the description with its " · " separators read as commas; a description equal to the label is not repeated.
 */
export function spokenName(label: string, description: string): string {
  const head = label.trim().replace(/[\s.,;:]+$/, '');
  const tail = description.trim().split(/\s+·\s+/).filter(Boolean).join(', ');
  return tail && tail !== head ? `${head}, ${tail}` : head;
}

export function authLabel(auth: string): string {
  switch (auth) {
    case 'password-grant': return 'password-grant token';
    case 'basic-api-key': return 'Basic + X-API-Key';
    case 'jwt-bearer': return 'JWT bearer';
    default: return 'auth not shown';
  }
}
