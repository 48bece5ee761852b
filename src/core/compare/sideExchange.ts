// One request on one side of a comparison: sent through THE exchange (core/run/exchange.ts) with that
// side's own preparation (its environment, its credential service: a side's secrets never prepare the
// other side's request), every row to the side's sink (all pages with `allPages`), and summed up as a
// SideSummary. The CLI's `apiwb compare` and the editor's Compare Environments… both use it.
import { CONTRACT_STEP, contractDriftStep } from '../contract';
import type { RowSink } from '../export/sink';
import type { HttpFile } from '../httpfile/model';
import { runExchange, type ExchangePorts, type ExchangeResult } from '../run/exchange';
import type { PrepareContext } from '../run/prepareRequest';
import type { SideSummary } from './requestComparison';

export interface SideExchangeInput {
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly prepare: PrepareContext;
  readonly allPages: boolean;
  readonly maxPages?: number;
  /** Where the rows go (closed by the caller). */
  readonly sink: RowSink;
  /** Told the secret values handed to this request, before it is sent (redactors learn them). */
  readonly onSecrets: (values: readonly string[]) => void;
  readonly signal?: AbortSignal;
  readonly onPage?: (pages: number, rows: number) => void;
  /** Redacts a text shown from this side (problems, business failures, drift). */
  readonly redact: (text: string) => string;
}

export interface SideResult {
  readonly summary: SideSummary;
  /** True when a response came: its rows are in the sink. */
  readonly responded: boolean;
  /** The operation's identifying field, where the contract names one. */
  readonly recordKey?: string;
  /** The request as sent (holds credentials: redact its URL before showing it). */
  readonly url?: string;
}

export async function runSideExchange(input: SideExchangeInput, ports: ExchangePorts): Promise<SideResult> {
  const result = await runExchange({
    file: input.file,
    requestIndex: input.requestIndex,
    onSecrets: input.onSecrets,
    prepare: input.prepare,
    pages: input.allPages ? 'all' : 'first',
    continuable: false,
    steps: [contractDriftStep('warning')],
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.allPages ? {
      walk: {
        sink: input.sink,
        ...(input.maxPages ? { maxPages: input.maxPages } : {}),
        onPage: (event) => input.onPage?.(event.progress.pages, event.progress.rows),
      },
    } : {}),
  }, ports);
  // A single response's rows are kept by the exchange: they go to the sink as they are.
  if (!input.allPages && result.rows && result.rows.items.length > 0) await input.sink.writePage(result.rows.items);
  return {
    summary: summaryOf(result, input),
    responded: result.response !== undefined,
    ...(result.operation?.recordKey ? { recordKey: result.operation.recordKey.field } : {}),
    ...(result.request ? { url: result.request.url } : {}),
  };
}

/** What a side came back with, from an exchange's result (or what a stored response gives of one: storedSide.ts). */
export function summaryOf(result: Pick<ExchangeResult, 'response' | 'problem' | 'business' | 'walk' | 'rows' | 'findings'>, input: Pick<SideExchangeInput, 'redact' | 'allPages'>): SideSummary {
  const failures = result.business?.failures ?? [];
  const walk = input.allPages ? result.walk?.verdict : undefined;
  const problem = result.response ? undefined : result.problem;
  return {
    ...(result.response ? { status: result.response.status } : {}),
    ...(problem ? { problem: input.redact(problem) } : {}),
    business: result.business?.failed ? 'failed' : 'ok',
    errorCodes: failures.map((f) => (f.code === undefined ? input.redact(f.message) : String(f.code))),
    ...(walk ? { walk } : {}),
    ...(result.rows ? { rows: result.rows.count } : {}),
    drift: result.findings.filter((f) => f.step === CONTRACT_STEP && f.severity !== 'note').map((f) => input.redact(f.message)),
  };
}
