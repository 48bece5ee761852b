// The comparison's webview: one panel, re-rendered from a CompareView (compareHtml.ts). No script runs
// in it; its links run only the comparison's own commands (Stop, open a pair in the diff editor).
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { compareHtml, type CompareView } from './compareHtml';

export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly shown = new vscode.EventEmitter<CompareView>();
  /** Each view as it is shown (progress included: tests await it). */
  readonly onDidShow = this.shown.event;
  /** The last view shown (tests read it). */
  last: CompareView | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(view: CompareView): void {
    this.last = view;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('apiWorkbench.compare', 'API Workbench comparison', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        enableCommandUris: ['apiWorkbench.compareStop', 'apiWorkbench.compareOpenPair'],
        localResourceRoots: [this.extensionUri],
      });
      this.panel.onDidDispose(() => { this.panel = undefined; });
    }
    this.panel.title = `Compare: ${view.title}`;
    this.panel.webview.html = compareHtml(view, randomBytes(16).toString('base64'), this.panel.webview.cspSource);
    this.shown.fire(view);
  }

  dispose(): void {
    this.shown.dispose();
    this.panel?.dispose();
  }
}
