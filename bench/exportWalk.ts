// Benchmark: a 1 000 000-row export-ordinal walk (Selection/GetSelectionResult_Ext, 100 000 rows a
// page) written to NDJSON by the paging engine, against a baseline that only fetches and JSON-parses
// the same pages with plain undici. The sandbox runs in this process; each side runs in its own child
// process so its peak RSS is its own. Prints figures; asserts nothing about time.
// Goals (DESIGN.md): engine ≥ 80 % of the baseline's rows/s; engine peak RSS < 250 MB.
//   node --import tsx bench/exportWalk.ts [--rows N] [--rounds R]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { openNdjsonSink, redactingSink } from '../src/core/export';
import { Redactor } from '../src/core/secrets';
import { walk } from '../src/core/paging';
import { startSandbox } from '../src/sandbox';

interface Figures { readonly side: string; readonly rows: number; readonly pages: number; readonly ms: number; readonly rowsPerSecond: number; readonly peakRssMB: number; readonly bytesOut?: number }

const PAGE_ROWS = 100_000;
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Peak RSS: the kernel's high-water mark, cross-checked by sampling (whichever is larger). */
function rssSampler(): () => number {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 10);
  timer.unref();
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.resourceUsage().maxRSS * 1024) / (1024 * 1024);
  };
}

async function baseline(baseUrl: string, token: string): Promise<Omit<Figures, 'peakRssMB'>> {
  const url = `${baseUrl}/api/Selection/GetSelectionResult_Ext`;
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let tableName = '';
  for (let offset = 1; ; offset++) {
    const res = await request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ OFFSET: offset, TableName: tableName }),
    });
    if (res.statusCode !== 200) throw new Error(`baseline: HTTP ${res.statusCode} on OFFSET ${offset}`);
    const page = JSON.parse(await res.body.text()) as { TableName: string; Result: unknown[] };
    tableName = page.TableName;
    rows += page.Result.length;
    pages++;
    if (page.Result.length < PAGE_ROWS) break;
  }
  const ms = performance.now() - started;
  return { side: 'baseline (undici + JSON.parse)', rows, pages, ms, rowsPerSecond: (rows * 1000) / ms };
}

/** `redacted`: through redactingSink, as the panel's "All pages" and the CLI's --out write (the token is a known secret). */
async function engine(baseUrl: string, token: string, redacted = false): Promise<Omit<Figures, 'peakRssMB'>> {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-bench-'));
  try {
    const path = join(dir, 'export.ndjson');
    const file = await openNdjsonSink(path);
    const redactor = new Redactor([token]);
    const sink = redacted ? redactingSink(file, () => redactor) : file;
    const result = await walk({
      method: 'POST', url: `${baseUrl}/api/Selection/GetSelectionResult_Ext`,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ OFFSET: 1, TableName: '' }),
    }, { plan: { style: 'export-ordinal', options: {}, source: 'catalog' }, sink });
    await sink.close();
    if (result.outcome !== 'complete') throw new Error(`engine: ${result.message}`);
    return { side: redacted ? 'engine, redacting (panel / CLI)' : 'engine (walk → NDJSON file)', rows: result.rows, pages: result.pages, ms: result.elapsedMs, rowsPerSecond: result.rowsPerSecond, bytesOut: statSync(path).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(side: string): Promise<void> {
  const baseUrl = process.env['APIWB_BENCH_BASE'] ?? '';
  const token = process.env['APIWB_BENCH_TOKEN'] ?? '';
  const peak = rssSampler();
  const figures = side === 'engine' ? await engine(baseUrl, token) : side === 'redacting' ? await engine(baseUrl, token, true) : await baseline(baseUrl, token);
  process.stdout.write(`${JSON.stringify({ ...figures, peakRssMB: peak() })}\n`);
}

function runChild(side: string, env: Record<string, string>): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', side], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${side} child exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Figures);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

async function main(): Promise<void> {
  const rows = arg('rows', 1_000_000);
  const rounds = arg('rounds', 3);
  const sandbox = await startSandbox({ exportRows: rows });
  try {
    const d = sandbox.descriptor;
    const form = new URLSearchParams({ grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
    const res = await request(`${d.engagement.authUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const token = (JSON.parse(await res.body.text()) as { access_token: string }).access_token;
    // The token goes to the children through the environment, never on a command line.
    const env = { APIWB_BENCH_BASE: d.engagement.baseUrl, APIWB_BENCH_TOKEN: token };
    const runs: Figures[] = [];
    const load = loadavg()[0] ?? 0;
    // Alternate which side goes first, so a burst of load elsewhere does not always hit the same side.
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['baseline', 'engine', 'redacting'] : ['redacting', 'engine', 'baseline'];
      for (const side of order) runs.push(await runChild(side, env));
    }
    const of = (side: string): Figures[] => runs.filter((r) => r.side.startsWith(side)).sort((a, b) => a.rowsPerSecond - b.rowsPerSecond);
    const median = (list: Figures[]): Figures => list[Math.floor(list.length / 2)]!;
    const base = of('baseline');
    const eng = of('engine (');
    const red = of('engine, redacting');
    const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
    const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(1)} %`;
    console.log(`exportWalk: ${fmt(rows)}-row export-ordinal walk, ${Math.ceil(rows / PAGE_ROWS)} pages of ${fmt(PAGE_ROWS)} rows, ${rounds} rounds (load average ${load.toFixed(1)} on ${cpus().length} CPUs)`);
    for (const r of runs) console.log(`  run  ${r.side.padEnd(32)} ${fmt(r.rowsPerSecond).padStart(10)} rows/s  ${(r.ms / 1000).toFixed(2)} s  peak RSS ${r.peakRssMB.toFixed(0)} MB`);
    console.log(`  baseline rows/s       median ${fmt(median(base).rowsPerSecond)}, best ${fmt(base.at(-1)!.rowsPerSecond)}   (peak RSS max ${Math.max(...base.map((r) => r.peakRssMB)).toFixed(0)} MB)`);
    console.log(`  engine   rows/s       median ${fmt(median(eng).rowsPerSecond)}, best ${fmt(eng.at(-1)!.rowsPerSecond)}   (NDJSON ${((eng[0]?.bytesOut ?? 0) / 1048576).toFixed(0)} MB)`);
    console.log(`  ratio engine/baseline median ${pct(median(eng).rowsPerSecond, median(base).rowsPerSecond)}, best ${pct(eng.at(-1)!.rowsPerSecond, base.at(-1)!.rowsPerSecond)}  (goal ≥ 80 %)`);
    console.log(`  engine peak RSS       max ${Math.max(...eng.map((r) => r.peakRssMB)).toFixed(0)} MB  (goal < 250 MB)`);
    console.log(`  redacting sink        median ${fmt(median(red).rowsPerSecond)} rows/s = ${pct(median(red).rowsPerSecond, median(base).rowsPerSecond)} of the baseline; peak RSS max ${Math.max(...red.map((r) => r.peakRssMB)).toFixed(0)} MB`);
  } finally {
    await sandbox.close();
  }
}

const sideIndex = process.argv.indexOf('--child');
if (sideIndex >= 0) void child(process.argv[sideIndex + 1] ?? 'engine').catch((error: unknown) => { console.error(error); process.exit(1); });
else void main().catch((error: unknown) => { console.error(error); process.exit(1); });
