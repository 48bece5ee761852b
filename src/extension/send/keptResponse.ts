// A Send's response kept for the panel without the extension host holding it whole (issue 37). The exchange
// writes the rows to a RowStore as they arrive (ExchangeInput.rowsTo: the one streaming path of the CLI,
// paging/anywhereFetch.ts), and the body's bytes are copied to a SpillStore as the HTTP port hands them
// over; both stay in memory up to SPILL_AT and go to a spill file (0600, its own 0700 temp folder) past it.
// Settled after the exchange:
// - a response held whole, or small enough to hold (<= SPILL_AT): its rows and body go back in the result
//   and the steps (assertions, contract drift) run on the whole body, as before; the stores are removed;
// - a response on disk: shown from there (core/results/spilledView.ts); the steps run on its first rows,
//   said in a notice; the exchange read no body back whole past SPILL_AT (ExchangeInput.keepBodyWithin), so
//   a named one is not remembered, said in the CLI's words (notReadWhole); the stores live until the panel
//   lets the response go.
import type { Catalog } from '../../core/catalog';
import type { HttpPort } from '../../core/http/client';
import type { NamedResponse } from '../../core/httpfile/resolve';
import { jsonTextTooDeep } from '../../core/json/depth';
import { namedResponse, type ExchangePorts, type ExchangeResult, type ExchangeStep, type Finding } from '../../core/run/exchange';
import { RowStore } from '../../core/results/rowStore';
import { SPILL_AT, SpillStore } from '../../core/results/spillStore';
import { notReadWhole } from '../../core/run/keptBody';
import { withRowsAt, type SpilledStores } from '../../core/results/spilledView';
import { HEAD_ROWS } from '../../protocol/webviewMessages';
import { formatCount } from '../../core/results/format';

export interface Settled {
  readonly result: ExchangeResult;
  /** Set when the response is on disk: the panel shows it from there and disposes it. */
  readonly stores?: SpilledStores;
}

export class KeptResponse {
  readonly rows: RowStore;
  readonly body: SpillStore;

  /** Past this many bytes the response is on disk: the exchange reads no body back whole past it (ExchangeInput.keepBodyWithin). */
  constructor(readonly spillAt = SPILL_AT) {
    this.rows = new RowStore(spillAt);
    this.body = new SpillStore(spillAt);
  }

  /** The exchange's ports with the body's bytes copied to `body` as they arrive (a request sent again starts it over). */
  ports(ports: ExchangePorts): ExchangePorts {
    const port = ports.http;
    const body = this.body;
    const http: HttpPort = {
      send: (request, options) => port.send(request, options),
      stream: async (request, options) => {
        const s = await port.stream(request, options);
        await body.truncate(0);
        return {
          ...s,
          read: (each) => s.read(async (chunk) => {
            await body.write(chunk);
            await each(chunk);
          }),
          discard: () => s.discard(),
        };
      },
    };
    return { ...ports, http };
  }

  /** `remember`: the named responses of the document ({{name.response…}}), which get a body held again. */
  async settle(result: ExchangeResult, steps: readonly ExchangeStep[], catalog: Catalog, remember?: Map<string, NamedResponse>): Promise<Settled> {
    const response = result.response;
    const onDisk = this.rows.spilled || this.body.spilled;
    if (!response || !result.prepared.ok) {
      await this.dispose();
      return { result };
    }
    const rows = result.rows;
    if (!onDisk) {
      const items = rows && rows.items.length === 0 ? await this.rows.readRows(0, this.rows.rowCount) : rows?.items;
      const heldText = response.bodyText === '' && this.body.size > 0 ? this.body.heldBytes()?.toString('utf8') : undefined;
      await this.dispose();
      const patched: ExchangeResult = { ...result, ...(rows && items ? { rows: { ...rows, items } } : {}) };
      if (heldText === undefined) return { result: patched };
      // Larger than the exchange holds, small enough for the panel: whole again, the checks on all of it.
      const body = jsonTextTooDeep(heldText) ? result.body : parseOr(heldText, result.body);
      const whole: ExchangeResult = { ...patched, response: { ...response, bodyText: heldText }, body };
      // The exchange remembers a body it held; this one it did not hold, and is whole again.
      const name = result.prepared.resolved.name;
      if (name) remember?.set(name, namedResponse(result.prepared.request, response, heldText));
      return { result: { ...whole, findings: await runSteps(whole, steps, catalog) } };
    }
    // On disk: the checks see the first rows in place of the skeleton's placeholders.
    const sample = await this.rows.readRows(0, HEAD_ROWS);
    const sampled: ExchangeResult = { ...result, body: withRowsAt(result.body, rows?.path, sample), ...(rows ? { rows: { ...rows, items: sample } } : {}) };
    const total = this.rows.rowCount;
    const notices = total > sample.length
      ? [...result.notices, `The response is too large to hold (${formatCount(response.sizeBytes)} bytes): its ${formatCount(total)} rows are read from disk as the table scrolls; assertions and the contract were checked on its first ${formatCount(sample.length)} rows.`]
      : [...result.notices];
    // A named response on disk is not remembered whole for {{name.response…}}: nor is an older one kept under its name.
    const name = result.prepared.resolved.name;
    if (name && remember && response.bodyText === '') {
      remember.delete(name);
      notices.push(`{{${name}.response…}} is not available to later requests: ${notReadWhole(this.body.size, this.spillAt)}.`);
    }
    return { result: { ...sampled, rows: { path: rows?.path ?? '$', items: [], count: total }, notices, findings: await runSteps(sampled, steps, catalog) }, stores: { rows: this.rows, body: this.body } };
  }

  dispose(): Promise<void> {
    return Promise.all([this.rows.remove(), this.body.remove()]).then(() => undefined);
  }
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return text.trim() === '' ? undefined : JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** The caller's steps again, on the body as settled (the exchange ran them on its skeleton). */
async function runSteps(result: ExchangeResult, steps: readonly ExchangeStep[], catalog: Catalog): Promise<Finding[]> {
  const { prepared, response } = result;
  if (!prepared.ok || !response) return [...result.findings];
  const findings: Finding[] = [];
  for (const step of steps) {
    findings.push(...(await step.run({ request: result.request ?? prepared.request, response, body: result.body, rows: result.rows, operation: result.operation, catalog, prepared })));
  }
  return findings;
}
