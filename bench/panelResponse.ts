// The editor's Send of one large response (issue 37), what the extension host holds: peak RSS and time of
// a fresh process that sends a request to a server of its own parent (a top-level array of rows, streamed,
// never held by the parent) and builds what the results panel is posted first, two ways:
// - "held" (before issue 37): the exchange keeps the rows (no rowsTo), the view model and both messages
//   (`show`, `showRest`) are built from them;
// - "from disk": the exchange writes the rows to the panel's RowStore, the body's bytes are copied to a
//   SpillStore (keptResponse.ts), and the panel gets its first rows and first body page (spilledView.ts);
//   the last row is then read back from disk, as a scroll to the end asks.
//   node --import tsx bench/panelResponse.ts [MiB ...]   (default: 100 200)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadNote, msText, printRow } from './lib/measure';
import { startRowsServer } from '../test/fixtures/rowsServer';

const CHILD = process.env.APIWB_BENCH_PANEL_CHILD;
const row = (i: number): string => `{"id":${i},"name":"row ${i}","status":"${i % 3 ? 'Completed' : 'Open'}","amount":${i * 1.5},"note":"${'x'.repeat(60)}"}`;
const ROW_BYTES = row(500_000).length + 1;

interface Sample { readonly ms: number; readonly peakMiB: number; readonly rows: number; readonly bytes: number }

async function child(mode: string, url: string): Promise<void> {
  const started = performance.now();
  const { createCatalog } = await import('../src/core/catalog/index');
  const { engagementService } = await import('../src/core/catalog/engagement');
  const { closeHttpAgents, httpClient } = await import('../src/core/http/client');
  const { parseHttpFile } = await import('../src/core/httpfile/parser');
  const { runExchange } = await import('../src/core/run/exchange');
  const { SecretBindings } = await import('../src/core/secrets/bindings');
  const { Redactor } = await import('../src/core/secrets/redact');
  const { viewModelOfExchange } = await import('../src/core/results/exchangeView');
  const { spilledViewModel } = await import('../src/core/results/spilledView');
  const { encodeShowRest, encodeViewModel } = await import('../src/core/results/wire');
  const { KeptResponse } = await import('../src/extension/send/keptResponse');
  const { devContext } = await import('../test/unit/exchangeContext');
  const ports = { http: httpClient, catalog: createCatalog([engagementService]), timeoutMs: 600_000, guard: new SecretBindings() };
  const input = { file: parseHttpFile(`GET {{base}}/rows\n`), requestIndex: 0, prepare: devContext(url), pages: 'first' as const };
  const redactor = new Redactor();
  const view = { requestKey: 'k', title: 't', redactor, id: 'bench' };
  let rows = 0;
  let bytes = 0;
  if (mode === 'held') {
    const result = await runExchange(input, ports);
    const vm = viewModelOfExchange(result, result.response!, view);
    const show = JSON.stringify(encodeViewModel(vm));
    const rest = encodeShowRest(vm);
    rows = result.rows?.count ?? 0;
    bytes = result.response?.sizeBytes ?? 0;
    if (show.length === 0 || (rows > 200 && !rest)) throw new Error('nothing to post');
  } else {
    const kept = new KeptResponse();
    const result = await runExchange({ ...input, rowsTo: kept.rows }, kept.ports(ports));
    const settled = await kept.settle(result, [], ports.catalog);
    if (!settled.stores) throw new Error('the response was not kept on disk');
    const { viewModel, source } = await spilledViewModel(settled.result, settled.result.response!, settled.stores, view);
    JSON.stringify(encodeViewModel(viewModel));
    rows = viewModel.table?.pagedRows ?? 0;
    bytes = settled.result.response?.sizeBytes ?? 0;
    const last = await source.rows(rows - 1, 1);
    if ((last.rows[0] as { id: number }).id !== rows - 1) throw new Error('the last row read back is not the last');
    await source.dispose();
  }
  await closeHttpAgents();
  const sample: Sample = { ms: performance.now() - started, peakMiB: process.resourceUsage().maxRSS / 1024, rows, bytes };
  process.stdout.write(JSON.stringify(sample));
}

async function parent(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  console.log(`panel response: a fresh process per send, a top-level array of rows from a local server; ${loadNote()}`);
  for (const mib of sizes.length ? sizes : [100, 200]) {
    const count = Math.floor((mib * 1048576) / ROW_BYTES);
    const server = await startRowsServer(count, row);
    const url = server.base;
    // The server answers from this process: the child runs beside it (never a synchronous wait).
    const run = async (mode: string): Promise<Sample> => JSON.parse((await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/panelResponse.ts'], { encoding: 'utf8', env: { ...process.env, APIWB_BENCH_PANEL_CHILD: `${mode} ${url}` }, maxBuffer: 1 << 20 })).stdout) as Sample;
    const fromDisk = await run('disk');
    const held = await run('held');
    await server.close();
    const line = (s: Sample): string => `${s.peakMiB.toFixed(0)} MiB peak, ${msText(s.ms)}`;
    console.log(`${mib} MiB body (${fromDisk.rows} rows, ${fromDisk.bytes} bytes): from disk ${line(fromDisk)}; held ${line(held)}; ${loadNote()}`);
    printRow({
      measure: `editor Send of a ${mib} MiB response: peak RSS until the panel's first message (last row read back)`, ours: line(fromDisk),
      baseline: `rows held (before): ${line(held)}`, ratio: `${(fromDisk.peakMiB / held.peakMiB).toFixed(2)}× the memory`,
      peakRss: `${fromDisk.peakMiB.toFixed(0)} MiB`, goal: 'flat (< 200 MiB)', met: fromDisk.peakMiB < 200,
    });
  }
}

if (CHILD) {
  const [mode, url] = CHILD.split(' ');
  child(mode!, url!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  parent().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
