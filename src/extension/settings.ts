// The extension's settings, read where they are used so a change applies to the next request.
import * as vscode from 'vscode';
import { DEFAULT_TIMEOUT_MS } from '../core/http/client';
import { DEFAULT_MAX_WAIT_MS } from '../core/http/serverWaits';

/** `apiWorkbench.timeoutMs`: the one deadline per response (send, sign-in, every page). */
export function responseTimeoutMs(): number {
  const value = vscode.workspace.getConfiguration('apiWorkbench').get<number>('timeoutMs', DEFAULT_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** `apiWorkbench.export.csvFormulas`: CSV cells that start like a formula are neutralised unless set to 'raw'. */
export function csvFormulas(): 'neutralise' | 'raw' {
  return vscode.workspace.getConfiguration('apiWorkbench').get<string>('export.csvFormulas', 'neutralise') === 'raw' ? 'raw' : 'neutralise';
}

/** `apiWorkbench.maxWaitSeconds`, in ms: all waits of one walk or Send on a server that asks for them. */
export function maxWaitMs(): number {
  const value = vscode.workspace.getConfiguration('apiWorkbench').get<number>('maxWaitSeconds', DEFAULT_MAX_WAIT_MS / 1000);
  return Number.isInteger(value) && value >= 0 ? value * 1000 : DEFAULT_MAX_WAIT_MS;
}
