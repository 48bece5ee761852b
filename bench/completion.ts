// Benchmark: the language server over stdio, as an editor drives it, on a 50 000-line `.http` file,
// against a null server (bench/completion/nullServer.ts: same document sync, answers nothing) in the
// same run:
// - open → first diagnostics: from didOpen sent to the first publishDiagnostics received;
// - typing at 10 keys/s: words of 6 characters typed into JSON bodies, a keystroke every 100 ms, then
//   a 500 ms pause (so validation runs, as it does for a user who stops to think), with a completion
//   request after every keystroke; latency = completion request → answer. The bench counts the
//   diagnostics published while typing, to show validation really ran.
// Both servers run as the product ships its server: bundled and minified by esbuild (like
// `npm run build -- --production` makes dist/server.js), started with plain `node` (no TypeScript loader).
// Goals (issue 14): completion p95 < 10 ms; first diagnostics < 100 ms. Prints figures; asserts nothing.
//   node --import tsx bench/completion.ts [--lines N] [--words W] [--rounds R] [--profile DIR]
// --profile DIR: our server runs with --cpu-prof, its profiles written to DIR (to see what a figure is made of).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { startLspSession, type LspSession } from '../test/server/lspClient';
import { arg, loadNote, median, msText, printRow } from './lib/measure';
import { buildLargeHttpFile, completionPoints, summary } from './completion/workload';

const KEY_INTERVAL_MS = 100;
const PAUSE_MS = 500;
const WORD = 'Preti_';

interface Figures { readonly openMs: number; readonly completion: number[]; readonly diagnosticsWhileTyping: number }

const at = (time: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));

async function drive(session: LspSession, text: string, words: number): Promise<Figures> {
  const uri = 'file:///bench/large.http';
  let published = 0;
  // A waiter that never accepts counts every publication (the client has one handler per method).
  void session.nextDiagnostics(uri, () => { published++; return false; });
  const first = session.nextDiagnostics(uri);
  const opened = performance.now();
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
  await first;
  const openMs = performance.now() - opened;
  const afterOpen = published;

  const points = completionPoints(text, words * 3).filter((p) => p.kind === 'body-key').slice(0, words);
  const completion: number[] = [];
  let version = 1;
  let clock = performance.now() + PAUSE_MS;
  for (const point of points) {
    for (let k = 0; k < WORD.length; k++) {
      await at(clock);
      clock += KEY_INTERVAL_MS;
      version++;
      const character = point.character + 1 + k; // after the key's opening quote
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version }, contentChanges: [{ range: { start: { line: point.line, character }, end: { line: point.line, character } }, text: WORD[k]! }],
      });
      const started = performance.now();
      await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: point.line, character: character + 1 } });
      completion.push(performance.now() - started);
    }
    clock += PAUSE_MS;
  }
  await at(clock);
  return { openMs, completion, diagnosticsWhileTyping: published - afterOpen };
}

async function main(): Promise<void> {
  const lines = arg('lines', 50_000);
  const words = arg('words', 20);
  const rounds = arg('rounds', 3);
  const text = buildLargeHttpFile(lines);
  const profile = process.argv.indexOf('--profile');
  const profiling = profile >= 0 ? ['--cpu-prof', `--cpu-prof-dir=${process.argv[profile + 1] ?? '.'}`] : [];
  const work = mkdtempSync(join(tmpdir(), 'apiwb-bench-completion-'));
  const bundle = (entry: string, name: string): string => {
    const outfile = join(work, name);
    // The options of scripts/build.mjs's node bundles, --production.
    // Profiled: not minified, so the profile names functions.
    esbuild.buildSync({ bundle: true, minify: profile < 0, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'], logLevel: 'warning', legalComments: 'none', entryPoints: [entry], outfile });
    return outfile;
  };
  const servers: Record<string, readonly string[]> = {
    ours: [...profiling, bundle('src/server/main.ts', 'server.js'), '--stdio'],
    null: [bundle('bench/completion/nullServer.ts', 'nullServer.js'), '--stdio'],
  };
  const results = new Map<string, Figures[]>([['ours', []], ['null', []]]);
  console.log(`completion: ${text.split('\n').length} lines, ${words} words of ${WORD.length} keys at ${1000 / KEY_INTERVAL_MS} keys/s with ${PAUSE_MS} ms pauses, ${rounds} rounds; ${loadNote()}`);
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? ['ours', 'null'] : ['null', 'ours']) {
      const session = await startLspSession(servers[name]!);
      const figures = await drive(session, text, words);
      await session.close();
      results.get(name)!.push(figures);
      const s = summary(figures.completion);
      console.log(`  run ${round + 1} ${name.padEnd(5)} open → diagnostics ${msText(figures.openMs)}; completion p50 ${msText(s.p50)} p95 ${msText(s.p95)} max ${msText(s.max)}; ${figures.diagnosticsWhileTyping} diagnostics published while typing`);
    }
  }
  rmSync(work, { recursive: true, force: true });
  const p95 = (name: string): number => median(results.get(name)!.map((f) => summary(f.completion).p95));
  const open = (name: string): number => median(results.get(name)!.map((f) => f.openMs));
  console.log(`  ${loadNote()}`);
  printRow({
    measure: `completion while typing at 10 keys/s, ${lines.toLocaleString('en-US')}-line file, stdio`, ours: `p95 ${msText(p95('ours'))}`, baseline: `null server p95 ${msText(p95('null'))}`,
    ratio: `${(p95('ours') / p95('null')).toFixed(1)}×`, peakRss: '-', goal: 'p95 < 10 ms', met: p95('ours') < 10,
  });
  printRow({
    measure: `open → first diagnostics, ${lines.toLocaleString('en-US')}-line file`, ours: msText(open('ours')), baseline: `null server ${msText(open('null'))}`,
    ratio: `${(open('ours') / open('null')).toFixed(1)}×`, peakRss: '-', goal: '< 100 ms', met: open('ours') < 100,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
