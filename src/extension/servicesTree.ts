// The Services view: service -> operation family -> operation. Pure projection of the catalog; no I/O.
import * as vscode from 'vscode';
import { releaseLines, type Catalog, type Family, type Operation } from '../core/catalog';
import type { ServiceRow } from '../core/catalog/serviceRows';
import { citationMarkdown, citationsAsMarkdown, commandLinker } from '../core/reference';
import { COMMANDS } from './commandIds';
import { formatCount, formatCountOf } from '../core/results/format';
import { authLabel, notShownLines, serviceTreeItem, withAccessibleName } from './treeItems';

export type ServicesNode =
  // A service's row (the catalog's service, or its precomputed row before the catalog loaded).
  | { readonly kind: 'service'; readonly service: ServiceRow }
  | { readonly kind: 'family'; readonly family: Family }
  | { readonly kind: 'operation'; readonly operation: Operation }
  | { readonly kind: 'notShown'; readonly text: string };

export class ServicesTreeProvider implements vscode.TreeDataProvider<ServicesNode> {
  private readonly changed = new vscode.EventEmitter<ServicesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private catalog: Catalog) {}

  setCatalog(catalog: Catalog): void {
    this.catalog = catalog;
    this.changed.fire(undefined);
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  getChildren(node?: ServicesNode): ServicesNode[] {
    if (!node) return this.catalog.services.map((service) => ({ kind: 'service', service }));
    switch (node.kind) {
      case 'service': {
        const service = this.catalog.service(node.service.id);
        // What the contract does not publish is in the service's and each family's tooltip, not rows.
        return service.families.map((family): ServicesNode => ({ kind: 'family', family }));
      }
      case 'family':
        return node.family.operations.map((operation): ServicesNode => ({ kind: 'operation', operation }));
      default:
        return [];
    }
  }

  getTreeItem(node: ServicesNode): vscode.TreeItem {
    return withAccessibleName(this.treeItem(node));
  }

  private treeItem(node: ServicesNode): vscode.TreeItem {
    switch (node.kind) {
      case 'service':
        return serviceTreeItem(node.service);
      case 'family': {
        const item = new vscode.TreeItem(node.family.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `family:${node.family.service}/${node.family.name}`;
        const shown = node.family.operations.length;
        // Say what is counted, short enough for a default-width side bar: "3 operations", "3 of 5 operations".
        const counted = node.family.statedOperationCount !== undefined
          ? `${formatCount(shown)} of ${formatCountOf(node.family.statedOperationCount, 'operation')}`
          : formatCountOf(shown, 'operation');
        // One quiet marker when the contract leaves something of the family unpublished; the tooltip says what.
        const silent = node.family.notShown.length > 0;
        item.description = silent ? `${counted} · ?` : counted;
        item.accessibilityInformation = { label: `${node.family.name}, ${counted}${silent ? ', some of it not shown by the contract' : ''}` };
        item.tooltip = new vscode.MarkdownString(citationsAsMarkdown([
          node.family.summary,
          ...(node.family.statedOperationCount !== undefined ? ['', `${formatCount(shown)} of the ${formatCount(node.family.statedOperationCount)} operations the contract counts are in the catalog.`] : []),
          ...notShownLines(node.family.notShown),
        ].join('\n'), commandLinker(COMMANDS.openContractReference)));
        item.tooltip.isTrusted = { enabledCommands: [COMMANDS.openContractReference] };
        item.contextValue = 'family';
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        return item;
      }
      case 'operation': {
        const op = node.operation;
        const item = new vscode.TreeItem(op.name, vscode.TreeItemCollapsibleState.None);
        item.id = `operation:${op.id}`;
        const path = op.path ? `${op.method ?? '?'} ${op.path}` : 'path not published';
        const marks = [
          op.pathStatus === 'inferred' ? 'inferred path' : undefined,
          op.paging !== 'none' ? `paging: ${op.paging}` : undefined,
          op.deprecated ? 'deprecated' : undefined,
          op.origin === 'import' ? 'imported' : op.imported ? 'enriched by import' : undefined,
        ].filter(Boolean);
        item.description = [path, ...marks].join(' · ');
        item.tooltip = new vscode.MarkdownString(operationTooltip(op));
        // The citation links open the contract reference at the section (that command only).
        item.tooltip.isTrusted = { enabledCommands: [COMMANDS.openContractReference] };
        item.contextValue = op.path ? 'operation' : 'operationWithoutPath';
        item.iconPath = new vscode.ThemeIcon(op.deprecated ? 'warning' : 'symbol-method');
        return item;
      }
      case 'notShown': {
        // The catalog's sentence ("Authentication: not shown.") without its full stop, then what is silent.
        const text = node.text.replace(/[\s.]+$/, '');
        const saysNotShown = /not shown$/i.test(text);
        const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.None);
        item.description = saysNotShown ? 'by the contract' : 'not shown by the contract';
        item.accessibilityInformation = { label: saysNotShown ? `${text} by the contract` : `${text}, not shown by the contract` };
        item.tooltip = `${node.text}\n\nThe published contract is silent here: supply it yourself (import an OpenAPI document, or write the request by hand).`;
        item.contextValue = 'notShown';
        item.iconPath = new vscode.ThemeIcon('question');
        return item;
      }
    }
  }
}

function operationTooltip(op: Operation): string {
  const lines = [
    `**${op.family}/${op.name}** — ${op.summary}`,
    '',
    `- Request: \`${op.method ?? '?'} ${op.path ?? '(path not published)'}\`${op.pathStatus === 'inferred' ? ' *(path inferred: the contract does not publish it)*' : ''}`,
    `- Auth: ${op.auth.map(authLabel).join(', ')}`,
    `- Paging: ${op.paging}`,
    `- Source: ${op.origin === 'import' ? 'an imported OpenAPI document' : citationMarkdown(op.source, commandLinker(COMMANDS.openContractReference))}`,
  ];
  if (op.deprecated) lines.push(`- Deprecated: use ${op.deprecated.replacement}`);
  lines.push(...releaseLines(op).map((l) => `- ${l}`));
  if (op.imported) lines.push(`- From the OpenAPI import (${op.imported.source}): ${op.imported.contributed.join(', ')}`);
  if (op.notShown.length > 0) lines.push('', '*Not shown by the contract:*', ...op.notShown.map((t) => `- ${t}`));
  return citationsAsMarkdown(lines.join('\n'), commandLinker(COMMANDS.openContractReference));
}
