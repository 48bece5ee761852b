// The last responses of each request, as summaries only: status, time, size, row count and a redacted URL.
// No header and no body is kept, so nothing here can hold a secret. Storage is a port with the shape of
// VS Code's Memento (workspaceState), so the same class works in memory for the CLI and the tests.
import type { HistoryEntry, ResultsViewModel } from '../../protocol/webviewMessages';
import { redactUrl } from './redaction';

export interface HistoryStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

const STORAGE_KEY = 'apiWorkbench.results.history';

export class ResponseHistory {
  private readonly byRequest: Map<string, HistoryEntry[]>;

  constructor(
    private readonly storage?: HistoryStorage,
    private readonly perRequest = 10,
    private readonly maxRequests = 50,
  ) {
    const saved = storage?.get<Record<string, HistoryEntry[]>>(STORAGE_KEY);
    this.byRequest = new Map(saved && typeof saved === 'object' ? Object.entries(saved).filter(([, v]) => Array.isArray(v)) : []);
  }

  /** Earlier responses to the request, newest first. */
  entries(requestKey: string): readonly HistoryEntry[] {
    return this.byRequest.get(requestKey) ?? [];
  }

  /** Records a summary of the response; resolves when the storage has it. */
  async record(viewModel: ResultsViewModel): Promise<void> {
    const entry = summarise(viewModel);
    const list = [entry, ...(this.byRequest.get(viewModel.requestKey) ?? [])].slice(0, this.perRequest);
    this.byRequest.delete(viewModel.requestKey); // re-insert: Map order is recency order
    this.byRequest.set(viewModel.requestKey, list);
    while (this.byRequest.size > this.maxRequests) {
      const oldest = this.byRequest.keys().next().value;
      if (oldest === undefined) break;
      this.byRequest.delete(oldest);
    }
    await this.storage?.update(STORAGE_KEY, Object.fromEntries(this.byRequest));
  }
}

export function summarise(vm: ResultsViewModel): HistoryEntry {
  return {
    receivedAt: vm.receivedAt,
    method: vm.request.method,
    url: redactUrl(vm.request.url),
    status: vm.status,
    statusText: vm.statusText,
    totalMs: vm.timing.totalMs,
    sizeBytes: vm.size.bytes,
    ...(vm.table ? { rowCount: vm.table.rows.length } : {}),
    businessFailed: vm.businessErrors !== undefined,
  };
}
