// The webview's handle on its host. Posting is the only way out of the sandboxed page; the persisted state
// holds view settings only (tab, search, scroll), never response content, so nothing secret is written.
import type { WebviewToHostMessage } from '../protocol/webviewMessages';

export interface PanelState {
  readonly responseId?: string;
  readonly tab?: string;
  readonly search?: string;
  readonly scrollTop?: number;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = acquireVsCodeApi();

export function post(message: WebviewToHostMessage): void {
  api.postMessage(message);
}

export function loadState(): PanelState {
  const state = api.getState();
  return typeof state === 'object' && state !== null ? (state) : {};
}

export function saveState(state: PanelState): void {
  api.setState(state);
}
