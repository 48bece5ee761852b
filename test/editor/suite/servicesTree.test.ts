// The Services view's data: service -> operation family -> operation, straight from the catalog.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CONTRACT_SERVICE_ROWS } from '../../../src/core/catalog/serviceRows.generated';
import { LazyTreeProvider } from '../../../src/extension/lazyTree';
import { afterRepliesSent } from '../../../src/extension/afterReplies';
import type { ServicesNode } from '../../../src/extension/servicesTree';
import { serviceTreeItem } from '../../../src/extension/treeItems';
import { activatedApi, extensionUnderTest, type PackageJson } from './extensionUnderTest';

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

describe('services tree', () => {
  it('returns the three services as its root items', async () => {
    const { servicesTree } = await activatedApi();
    const roots = servicesTree.getChildren();
    const labels = roots.map((node) => labelOf(servicesTree.getTreeItem(node)));
    assert.deepEqual(labels, ['Customer-engagement service', 'Fundraising service', 'Booking service']);
    for (const node of roots) {
      const item = servicesTree.getTreeItem(node);
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, `${labelOf(item)} can be expanded`);
    }
  });

  it("lists each service's operation families under it, then each family's operations", async () => {
    const { servicesTree, catalog } = await activatedApi();
    for (const service of catalog().services) {
      const serviceNode: ServicesNode = { kind: 'service', service };
      const families = servicesTree.getChildren(serviceNode).filter((n) => n.kind === 'family');
      assert.deepEqual(families.map((n) => labelOf(servicesTree.getTreeItem(n))), service.families.map((f) => f.name));
      for (const family of service.families) {
        const operations = servicesTree.getChildren({ kind: 'family', family }).filter((n) => n.kind === 'operation');
        assert.deepEqual(operations.map((n) => labelOf(servicesTree.getTreeItem(n))), family.operations.map((o) => o.name));
      }
    }
  });

  it('shows the release facts: engagement 1.34.0.0 (1.35 unverified) on its node, fundraising releases on operations', async () => {
    const { servicesTree, catalog } = await activatedApi();
    const [engagement, fundraising] = servicesTree.getChildren();
    assert.ok(engagement && fundraising);
    const engagementItem = servicesTree.getTreeItem(engagement);
    assert.match(String(engagementItem.description), /^release 1\.34\.0\.0 · /);
    const tooltip = engagementItem.tooltip instanceof vscode.MarkdownString ? engagementItem.tooltip.value : String(engagementItem.tooltip);
    assert.match(tooltip, /non-production environment runs a later release \(1\.35\); whether it is compatible is unverified/);
    assert.match(String(servicesTree.getTreeItem(fundraising).description), /^dated releases · /);
    const list = catalog().operationById('fundraising/Transactions/ListTransactions');
    assert.ok(list);
    const opTooltip = servicesTree.getTreeItem({ kind: 'operation', operation: list }).tooltip;
    assert.match(opTooltip instanceof vscode.MarkdownString ? opTooltip.value : String(opTooltip), /introduced in the later release/);
  });

  it('says what a family counts and reads every item as one clean phrase (no doubled punctuation)', async () => {
    const { servicesTree, catalog } = await activatedApi();
    const nodes: ServicesNode[] = [];
    const walk = (node?: ServicesNode) => {
      for (const child of servicesTree.getChildren(node)) {
        nodes.push(child);
        walk(child);
      }
    };
    walk();
    const family = catalog().services.flatMap((s) => s.families).find((f) => f.statedOperationCount === undefined && f.operations.length > 1 && f.notShown.length === 0);
    assert.ok(family, 'the catalog has a family without a stated count');
    const familyItem = servicesTree.getTreeItem({ kind: 'family', family });
    assert.equal(familyItem.description, `${family.operations.length} operations`);
    assert.equal(familyItem.accessibilityInformation?.label, `${family.name}, ${family.operations.length} operations`);
    let silentFamilies = 0;
    for (const node of nodes) {
      const item = servicesTree.getTreeItem(node);
      const name = item.accessibilityInformation?.label ?? '';
      assert.ok(name.length > 0, `${labelOf(item)} has an accessible name`);
      assert.doesNotMatch(name, /[.,;:]\s*[.,;:]|·|\s{2}/, `"${name}" reads cleanly`);
      if (node.kind === 'family') assert.match(String(item.description), /\boperations?\b/, `${labelOf(item)}: ${String(item.description)}`);
      assert.notEqual(node.kind, 'notShown', 'what the contract does not show is a marker, not a row');
      if (node.kind === 'family' && node.family.notShown.length > 0) {
        silentFamilies += 1;
        assert.match(String(item.description), / · \?$/, 'one quiet marker');
        assert.match(name, /some of it not shown by the contract$/, name);
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
        assert.ok(node.family.notShown.every((text) => tooltip.includes(text.slice(0, 30))), `${labelOf(item)}: the tooltip lists what is not shown`);
      }
    }
    assert.ok(silentFamilies > 0, 'the catalog has families the contract is partly silent on');
  });

  it('is contributed as the Services view, which the editor can focus', async () => {
    const views = (extensionUnderTest().packageJSON as PackageJson).contributes.views ?? {};
    assert.ok(Object.values(views).flat().some((v) => v.id === 'apiWorkbench.services'));
    await vscode.commands.executeCommand('apiWorkbench.services.focus');
  });

  it('draws its first rows before the catalog loads exactly as the catalog draws them', async () => {
    const { servicesTree } = await activatedApi();
    const roots = servicesTree.getChildren();
    assert.equal(roots.length, CONTRACT_SERVICE_ROWS.length);
    const drawn = (item: vscode.TreeItem) => ({
      label: item.label, id: item.id, description: item.description, collapsible: item.collapsibleState, contextValue: item.contextValue,
      tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip, name: item.accessibilityInformation?.label,
      icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
    });
    CONTRACT_SERVICE_ROWS.forEach((row, i) => {
      assert.deepEqual(drawn(serviceTreeItem(row)), drawn(servicesTree.getTreeItem(roots[i]!)));
      // A row shown before the load expands through the catalog once it is loaded.
      const early = servicesTree.getChildren({ kind: 'service', service: row }).map((n) => labelOf(servicesTree.getTreeItem(n)));
      assert.deepEqual(early, servicesTree.getChildren(roots[i]).map((n) => labelOf(servicesTree.getTreeItem(n))));
      assert.ok(early.length > 0);
    });
  });

  it('answers its first rows without a load, loads right after them, then hands over to the real provider', async () => {
    const { servicesTree } = await activatedApi();
    let loads = 0;
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const lazy = new LazyTreeProvider<ServicesNode>(async () => { loads += 1; await gate; return servicesTree; }, {
      rows: () => CONTRACT_SERVICE_ROWS.map((service) => ({ kind: 'service', service })),
      item: (node) => (node.kind === 'service' ? serviceTreeItem(node.service) : undefined),
    });
    try {
      const first = await lazy.getChildren();
      assert.deepEqual(first.map((n) => n.kind === 'service' && n.service.id), ['engagement', 'fundraising', 'booking']);
      assert.equal(labelOf(await lazy.getTreeItem(first[0]!)), 'Customer-engagement service');
      assert.equal(loads, 0, 'the first rows need no load');
      // Once the rows are sent to the editor, the load starts: one load, however many requests wait for it.
      await new Promise<void>((resolve) => afterRepliesSent(resolve));
      assert.equal(loads, 1);
      const children = lazy.getChildren(first[0]);
      assert.equal(loads, 1);
      release?.();
      assert.ok((await children).some((n) => n.kind === 'family'));
      // Loaded: the root comes from the real provider, and its change events reach the view.
      assert.equal((await lazy.getChildren()).length, servicesTree.getChildren().length);
      const fired = new Promise<void>((resolve) => { const listener = lazy.onDidChangeTreeData(() => { listener.dispose(); resolve(); }); });
      servicesTree.refresh();
      await fired;
      assert.equal(loads, 1);
    } finally {
      lazy.dispose();
    }
  });

  it('forwards the real provider\'s changes after its first rows even when nothing was expanded', async () => {
    const { servicesTree } = await activatedApi();
    const lazy = new LazyTreeProvider<ServicesNode>(() => Promise.resolve(servicesTree), {
      rows: () => CONTRACT_SERVICE_ROWS.map((service) => ({ kind: 'service', service })),
      item: (node) => (node.kind === 'service' ? serviceTreeItem(node.service) : undefined),
    });
    try {
      await lazy.getChildren();
      await new Promise<void>((resolve) => afterRepliesSent(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      const fired = new Promise<void>((resolve) => { const listener = lazy.onDidChangeTreeData(() => { listener.dispose(); resolve(); }); });
      servicesTree.refresh(); // what an OpenAPI import does through the catalog
      await fired;
    } finally {
      lazy.dispose();
    }
  });
});
