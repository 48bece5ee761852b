// issue 7 "Must show": the sample collection (samples/collections/) run by `apiwb run` against the
// sandbox — every service, every paging style — first pages only, then `--all-pages` to NDJSON and to
// CSV with the row counts the sandbox declares, and the three exit codes on the same collection.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { assertNoSecret, runCli, summaryLines, type CliResult } from './cliProcess';
import { buildCli, COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';

let cli = '';
const apiwb = (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(cli, args, env);

/** Every request of the sample collection, in run order (files sorted by path, requests in file order). */
const RUN_ORDER = [
  'listBookings', // booking.http
  'leadsOfCustomer', 'assetsInBatches', 'selectionExport', 'factTransactions', // engagement-paging.http
  'addChoiceQuestion', 'ordersByCustomer', // engagement.http
  'listConstituents', // fundraising.http
];

/** The paged requests: their style, the rows the sandbox declares and the pages a walk takes. */
function declared(d: SandboxDescriptor): Record<string, { style: string; rows: number; pages: number }> {
  const s = d.samples;
  return {
    listBookings: { style: 'page-headers', rows: s.bookings, pages: Math.ceil(s.bookings / s.bookingsPerPage) },
    // Offset + remaining ends on the empty page after the last one with rows.
    leadsOfCustomer: { style: 'offset-remaining', rows: s.leadsOfCtcID, pages: Math.ceil(s.leadsOfCtcID / 100) + 1 },
    assetsInBatches: { style: 'batch-cursor', rows: s.assets, pages: Math.ceil(s.assets / 1000) },
    // A short last page ends the export; an export of whole pages would need one more, empty, page.
    selectionExport: { style: 'export-ordinal', rows: s.exportRows, pages: Math.floor(s.exportRows / s.selectionPageRows) + 1 },
    // Stateful extraction ends on the empty result.
    factTransactions: { style: 'stateful-extraction', rows: s.facts, pages: Math.ceil(s.facts / 5000) + 1 },
    ordersByCustomer: { style: 'page-number', rows: s.ordersOfCtcID, pages: Math.ceil(s.ordersOfCtcID / 50) },
    listConstituents: { style: 'generic', rows: s.constituents, pages: Math.ceil(s.constituents / 50) },
  };
}

/** Records of an RFC 4180 file: line ends inside quotes do not end a record. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i++; }
    else field += c;
  }
  assert.equal(field + record.join(''), '', 'the file ends with a complete record');
  return records;
}

void describe('the sample collection against the sandbox', () => {
  let ws: SandboxWorkspace;
  let d: SandboxDescriptor;
  const run = (extra: readonly string[], env?: Record<string, string>): Promise<CliResult> =>
    apiwb(['run', COLLECTION, '--env', 'sandbox', '--env-file', ws.envFile, ...extra], env ?? ws.secrets);

  before(async () => {
    ws = await openSandboxWorkspace();
    d = ws.descriptor;
    cli = await buildCli(ws.dir);
  });
  after(async () => { await ws.close(); });

  void it('first pages: every request of every service answers, exit 0', async () => {
    const result = await run([]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = summaryLines(result.stdout);
    assert.deepEqual(lines.map((l) => l.label), RUN_ORDER);
    for (const line of lines) assert.ok(line.ok && line.status === 200, `${line.label}: ${JSON.stringify(line)}`);
    assert.match(result.stdout, new RegExp(`^${RUN_ORDER.length} requests, 0 failed, `, 'm'));
    assertNoSecret(ws.secretValues, result);
  });

  void it('--all-pages to NDJSON: every paging style walked to the declared row count, every row in the file', async () => {
    const out = join(ws.dir, 'all.ndjson');
    const result = await run(['--all-pages', '--out', out]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = new Map(summaryLines(result.stdout).map((l) => [l.label, l]));
    const expected = declared(d);
    for (const [label, want] of Object.entries(expected)) {
      const line = lines.get(label);
      assert.ok(line?.ok, `${label} (${want.style}) succeeded`);
      assert.equal(line.rows, want.rows, `${label} (${want.style}) rows`);
      assert.equal(line.pages, want.pages, `${label} (${want.style}) pages`);
    }
    const total = [...lines.values()].reduce((sum, l) => sum + (l.rows ?? 0), 0);
    const rows = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
    assert.equal(rows.length, total);
    assert.ok(total >= Object.values(expected).reduce((sum, e) => sum + e.rows, 0));
    assertNoSecret(ws.secretValues, result);
  });

  void it('--all-pages to CSV: one header, then every row of every walk', async () => {
    const out = join(ws.dir, 'all.csv');
    const result = await run(['--all-pages', '--out', out, '--format', 'csv']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = summaryLines(result.stdout);
    const total = lines.reduce((sum, l) => sum + (l.rows ?? 0), 0);
    const records = csvRecords(readFileSync(out, 'utf8'));
    assert.equal(records.length, total + 1);
    const header = records[0] ?? [];
    assert.equal(header.at(-1), '_extra', 'keys of later requests are kept in _extra');
    assert.ok(records.every((r) => r.length === header.length), 'every record has the header\'s columns');
    for (const [label, want] of Object.entries(declared(d))) assert.equal(lines.find((l) => l.label === label)?.rows, want.rows, label);
  });

  void it('one walk alone, to the row count the sandbox declares (export ordinal, --name)', async () => {
    const out = join(ws.dir, 'export.ndjson');
    const result = await run(['--name', 'selectionExport', '--all-pages', '--out', out]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(readFileSync(out, 'utf8').split('\n').filter(Boolean).length, d.samples.exportRows);
  });

  void it('exit 1: a refused credential fails its requests and the others still run', async () => {
    const result = await run([], { ...ws.secrets, APIWB_SECRET_FUNDRAISING_SERVICE_KEY: 'sk_not_the_right_key' });
    assert.equal(result.code, 1);
    const lines = summaryLines(result.stdout);
    assert.deepEqual(lines.filter((l) => !l.ok).map((l) => [l.label, l.status]), [['listConstituents', 401]]);
    assert.equal(lines.filter((l) => l.ok).length, RUN_ORDER.length - 1);
    assertNoSecret(ws.secretValues, result);
  });

  void it('a variable the environment lacks: that request is not run, named by file and line; the others run (exit 1)', async () => {
    const env = JSON.parse(readFileSync(ws.envFile, 'utf8')) as { sandbox: Record<string, unknown> };
    delete env.sandbox['export_page_rows'];
    const lacking = join(ws.dir, 'lacking.env.json');
    writeFileSync(lacking, JSON.stringify(env));
    const result = await apiwb(['run', COLLECTION, '--env', 'sandbox', '--env-file', lacking, '--all-pages'], ws.secrets);
    assert.equal(result.code, 1, result.stderr);
    const line = readFileSync(join(COLLECTION, 'engagement-paging.http'), 'utf8').split('\n').findIndex((l) => l.includes('GetSelectionResult_Ext')) + 1;
    assert.match(result.stdout, new RegExp(`not run \\(API Workbench\\) at \\S*engagement-paging\\.http:${line}: \\{\\{export_page_rows\\}\\}: The variable 'export_page_rows' is not defined`));
    const lines = summaryLines(result.stdout);
    assert.equal(lines.filter((l) => l.ok).length, RUN_ORDER.length - 1, 'every other request ran and succeeded');
  });
});
