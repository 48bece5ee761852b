// Benchmark: a 200-request collection (generated into a temp folder: booking, engagement GET and POST,
// fundraising, one request after the other) run by `apiwb run` (the CLI bundled like dist/cli.js) and by
// the httpyac CLI against the same in-process sandbox, in alternating rounds. Prints each side's median
// wall time (process start to exit, as a user waits for it) and the ratio. Asserts nothing.
// Goal (issue 7): apiwb at most half httpyac's time.
//   node --import tsx bench/cliRun.ts [--requests N] [--rounds R]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox';
import { summaryLines } from '../test/cli/cliProcess';
import { HTTPYAC, httpyacPrivateEnvText, withPlainAuthVariables } from '../test/cli/httpyacEnv';
import { buildCli, sandboxEnvFileText } from '../test/cli/sandboxEnv';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

const auth = { bearer: '{{$auth.token("engagement")}}', basic: '{{$auth.token("fundraising")}}' };

/** The collection for apiwb; httpyac's copy differs only in its auth variables (withPlainAuthVariables). */
function collection(requests: number): string {
  const kinds = [
    (n: number) => [`GET {{booking_base_url}}/bookings?page=${(n % 9) + 1}`, 'Accept: application/json'],
    () => ['GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=50', `Authorization: Bearer ${auth.bearer}`],
    (n: number) => [
      'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion', `Authorization: Bearer ${auth.bearer}`, 'Content-Type: application/json', '',
      JSON.stringify({ OpCode: 1, PageID: 1, QuestionLabel: `Label ${n}`, QuestionPosition: 1, QuestionType: 'Label', IsMandatory: false }),
    ],
    () => ['GET {{fundraising_base_url}}/v1/constituents?limit=50', `Authorization: Basic ${auth.basic}`, 'X-API-Key: {{tenant_code}}'],
    () => [
      'POST {{engagement_base_url}}/api/SalesLeads/GetLeads', `Authorization: Bearer ${auth.bearer}`, 'Content-Type: application/json', '',
      '{ "CtcID": {{ctc_id}}, "BrandID": {{brand_id}}, "PageSize": 50, "Offset": 0 }',
    ],
  ];
  const blocks: string[] = [];
  for (let n = 0; n < requests; n++) {
    const kind = kinds[n % kinds.length] ?? kinds[0];
    blocks.push([`### request ${n + 1}`, `# @name req${String(n + 1).padStart(3, '0')}`, ...(kind?.(n) ?? []), ''].join('\n'));
  }
  return blocks.join('\n');
}

interface Run { readonly ms: number; readonly statuses: readonly (number | undefined)[] }

/**
 * Runs a CLI to completion with its stdout going to a file (httpyac exits before a pipe drains a large
 * JSON report; a file takes every byte), and returns the wall time and what it printed.
 */
async function timed(file: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ ms: number; stdout: string }> {
  const outPath = join(options.cwd, 'stdout.txt');
  const out = openSync(outPath, 'w');
  const started = performance.now();
  try {
    const child = spawn(process.execPath, [file, ...args], { ...options, stdio: ['ignore', out, 'ignore'] });
    const [code] = await once(child, 'exit') as [number | null];
    // apiwb exits 1 when a request fails; anything else is the bench's own failure.
    if (code !== 0 && code !== 1) throw new Error(`${file} exited ${code}`);
  } finally {
    closeSync(out);
  }
  return { ms: performance.now() - started, stdout: readFileSync(outPath, 'utf8') };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const requests = arg('requests', 200);
  const rounds = arg('rounds', 3);
  const sandbox = await startSandbox();
  const d = sandbox.descriptor;
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-bench-cli-'));
  try {
    const cli = await buildCli(dir);
    const ours = join(dir, 'apiwb');
    const theirs = join(dir, 'httpyac');
    mkdirSync(ours);
    mkdirSync(theirs);
    const envText = sandboxEnvFileText(d);
    writeFileSync(join(ours, 'http-client.env.json'), envText);
    writeFileSync(join(theirs, 'http-client.env.json'), envText);
    const text = collection(requests);
    writeFileSync(join(ours, 'collection.http'), text);
    writeFileSync(join(theirs, 'collection.http'), withPlainAuthVariables(text));
    // httpyac gets a token signed in before its clock starts; apiwb signs in within its run.
    writeFileSync(join(theirs, 'http-client.private.env.json'), await httpyacPrivateEnvText(d));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('APIWB_SECRET_')));
    const apiwbEnv = {
      ...base, NO_COLOR: '1',
      APIWB_SECRET_ENGAGEMENT_PASSWORD: d.credentials.engagement.password,
      APIWB_SECRET_FUNDRAISING_SERVICE_KEY: d.credentials.fundraising.fullAccess.serviceKey,
    };

    const runApiwb = async (): Promise<Run> => {
      const { ms, stdout } = await timed(cli, ['run', 'collection.http', '--env', 'sandbox'], { cwd: ours, env: apiwbEnv });
      return { ms, statuses: summaryLines(stdout).map((l) => l.status) };
    };
    const runHttpyac = async (): Promise<Run> => {
      const { ms, stdout } = await timed(HTTPYAC, ['send', 'collection.http', '--all', '--env', 'sandbox', '--json', '-o', 'short'], { cwd: theirs, env: { ...base, NO_COLOR: '1' } });
      const report = JSON.parse(stdout) as { requests: { response?: { statusCode?: number } }[] };
      return { ms, statuses: report.requests.map((r) => r.response?.statusCode) };
    };

    console.log(`${requests} requests a run, ${rounds} round(s) after a warm-up of each; ${cpus().length} CPU(s), node ${process.version}`);
    await runApiwb();
    await runHttpyac();
    const ourRuns: Run[] = [];
    const theirRuns: Run[] = [];
    for (let round = 0; round < rounds; round++) {
      ourRuns.push(await runApiwb());
      theirRuns.push(await runHttpyac());
    }
    const report = (name: string, runs: readonly Run[]): number => {
      const ms = median(runs.map((r) => r.ms));
      const last = runs.at(-1)?.statuses ?? [];
      const ok = last.filter((s) => s !== undefined && s < 400).length;
      console.log(`${name.padEnd(8)} median ${ms.toFixed(0).padStart(6)} ms  (runs: ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms)  ` +
        `${(requests / (ms / 1000)).toFixed(0)} requests/s  ${ok}/${last.length} answered < 400`);
      return ms;
    };
    const apiwbMs = report('apiwb', ourRuns);
    const httpyacMs = report('httpyac', theirRuns);
    const ratio = apiwbMs / httpyacMs;
    console.log(`ratio apiwb/httpyac ${ratio.toFixed(2)} (goal ≤ 0.50: ${ratio <= 0.5 ? 'met' : 'not met'})`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
