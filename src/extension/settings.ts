// The extension's settings, read where they are used so a change applies to the next request.
import * as vscode from 'vscode';
import { DEFAULT_TIMEOUT_MS } from '../core/http/client';

/** `apiWorkbench.timeoutMs`: the one deadline per response (send, sign-in, every page). */
export function responseTimeoutMs(): number {
  const value = vscode.workspace.getConfiguration('apiWorkbench').get<number>('timeoutMs', DEFAULT_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** `apiWorkbench.export.csvFormulas`: CSV cells that start like a formula are neutralised unless set to 'raw'. */
export function csvFormulas(): 'neutralise' | 'raw' {
  return vscode.workspace.getConfiguration('apiWorkbench').get<string>('export.csvFormulas', 'neutralise') === 'raw' ? 'raw' : 'neutralise';
}
