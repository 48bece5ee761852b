// Benchmark: the language server over stdio, as an editor drives it, on a 50 000-line `.http` file,
// against a null server (bench/completion/nullServer.ts: same document sync, answers nothing) in the
// same run:
// - open → first diagnostics: from didOpen sent to the first publishDiagnostics received. The server
//   publishes once per version, for the whole file (no partial publication), so this is the time until
//   every block's diagnostics are in; a server that published progressively would have to be timed to
//   its last publication here, with the first one beside it;
//   As the editor does when a file opens, the folding ranges, outline and lenses are asked right after
//   the didOpen, of a server that declares them (ours; the null server declares none, so an editor asks
//   it nothing): a server that answered them first would publish later. When they were answered is
//   printed beside the figure;
// - typing at 10 keys/s: words of 6 characters typed into JSON bodies, a keystroke every 100 ms, then
//   a pause of 250 to 600 ms (so validation runs, as it does for a user who stops to think; the short
//   pauses end while it may still run, so the next keystroke's completion can meet it), with a
//   completion request after every keystroke; latency = completion request → answer. The bench counts
//   the diagnostics published while typing, to show validation really ran.
// - start → initialize answered: spawning the server until its initialize answer is read (the client
//   sends no document before it; a server that moved work there from the open would show it here);
// Beside each wall-clock figure, the CPU time the server's main thread spent (/proc/<pid>/schedstat):
// on a shared machine it says how much of a figure was our work and how much was waiting for a core.
// Both servers run as the product ships its server: bundled and minified by esbuild (like
// `npm run build -- --production` makes dist/server.js), started with plain `node` (no TypeScript loader).
// Goals (issue 14): completion p95 < 10 ms; first diagnostics < 100 ms. Prints figures; asserts nothing.
//   node --import tsx bench/completion.ts [--lines N] [--words W] [--rounds R] [--profile DIR]
// --profile DIR: our server runs with --cpu-prof, its profiles written to DIR (to see what a figure is made of).
// --compare DIR: also runs the server of another checkout (e.g. main) in the same rounds, logged as 'other'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import {
  CodeLensRequest, CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, FoldingRangeRequest,
} from 'vscode-languageserver-protocol/node';
import { startLspSession, type LspSession } from '../test/server/lspClient';
import { VALIDATION_DELAY_MS } from '../src/server/server';
import { arg, loadNote, mainThreadCpuMs, median, msText, printRow } from './lib/measure';
import { buildLargeHttpFile, completionPoints, summary } from './completion/workload';

const KEY_INTERVAL_MS = 100;
/** Pauses after each word, in turn; the validation delay is 200 ms (src/server/server.ts). */
const PAUSES_MS = [250, 300, 400, 600];

/** CPU time (ms) a process's main thread has run, or NaN where it cannot be read. */
const mainThreadCpuMsOrNaN = (pid: number | undefined): number => mainThreadCpuMs(pid) ?? Number.NaN;
const WORD = 'Preti_';

interface Figures {
  /** Spawn → initialize answered. */
  readonly startMs: number;
  readonly openMs: number;
  readonly openCpuMs: number;
  /** didOpen sent → the last of the editor's open-time requests answered (NaN: the server declares none). */
  readonly openRequestsMs: number;
  readonly completion: number[];
  readonly diagnosticsWhileTyping: number;
  /** Main-thread CPU time of the server while typing, per keystroke (changes, completions, validations). */
  readonly cpuPerKeyMs: number;
  /** Of the completions, how many were asked while a validation had started and not yet published. */
  readonly duringValidation: number;
}

const at = (time: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));

/** What an editor asks as a file opens, of a server that declares it: folding ranges, outline (breadcrumbs), lenses. */
function editorOpenRequests(session: LspSession, uri: string): Array<Promise<unknown>> {
  const declared = session.initializeResult.capabilities;
  const textDocument = { uri };
  return [
    declared.foldingRangeProvider ? session.connection.sendRequest(FoldingRangeRequest.type, { textDocument }) : undefined,
    declared.documentSymbolProvider ? session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }) : undefined,
    declared.codeLensProvider ? session.connection.sendRequest(CodeLensRequest.type, { textDocument }) : undefined,
  ].filter((p) => p !== undefined);
}

async function drive(session: LspSession, text: string, words: number, startMs: number): Promise<Figures> {
  const uri = 'file:///bench/large.http';
  let published = 0;
  // A waiter that never accepts counts every publication (the client has one handler per method).
  void session.nextDiagnostics(uri, () => { published++; return false; });
  const first = session.nextDiagnostics(uri);
  const cpuBefore = mainThreadCpuMsOrNaN(session.child.pid);
  const opened = performance.now();
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
  const asks = editorOpenRequests(session, uri);
  await first;
  const openMs = performance.now() - opened;
  const openRequestsMs = asks.length === 0 ? Number.NaN : (await Promise.all(asks), performance.now() - opened);
  const openCpuMs = mainThreadCpuMsOrNaN(session.child.pid) - cpuBefore;
  const afterOpen = published;

  const points = completionPoints(text, words * 3).filter((p) => p.kind === 'body-key').slice(0, words);
  const completion: number[] = [];
  let version = 1;
  const cpuBeforeTyping = mainThreadCpuMsOrNaN(session.child.pid);
  let clock = performance.now() + PAUSES_MS.at(-1)!;
  // A validation may be running from 200 ms after a word's last key until its diagnostics come.
  let validationDueAt = Infinity;
  let publishedAtDue = 0;
  let duringValidation = 0;
  for (const [index, point] of points.entries()) {
    for (let k = 0; k < WORD.length; k++) {
      await at(clock);
      if (performance.now() >= validationDueAt && published === publishedAtDue) duringValidation++;
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
    validationDueAt = clock - KEY_INTERVAL_MS + VALIDATION_DELAY_MS;
    publishedAtDue = published;
    clock += PAUSES_MS[index % PAUSES_MS.length]! - KEY_INTERVAL_MS;
  }
  await at(clock);
  const cpuPerKeyMs = (mainThreadCpuMsOrNaN(session.child.pid) - cpuBeforeTyping) / Math.max(1, completion.length);
  return { startMs, openMs, openCpuMs, openRequestsMs, completion, diagnosticsWhileTyping: published - afterOpen, cpuPerKeyMs, duringValidation };
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
  const compare = process.argv.indexOf('--compare');
  if (compare >= 0) servers.other = [bundle(join(process.argv[compare + 1] ?? '.', 'src/server/main.ts'), 'other.js'), '--stdio'];
  const results = new Map<string, Figures[]>(Object.keys(servers).map((name) => [name, []]));
  console.log(`completion: ${text.split('\n').length} lines, ${words} words of ${WORD.length} keys at ${1000 / KEY_INTERVAL_MS} keys/s with pauses of ${PAUSES_MS.join(', ')} ms, ${rounds} rounds; ${loadNote()}`);
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(servers);
    for (const name of round % 2 === 0 ? names : names.reverse()) {
      const started = performance.now();
      const session = await startLspSession(servers[name]!);
      const figures = await drive(session, text, words, performance.now() - started);
      await session.close();
      results.get(name)!.push(figures);
      const s = summary(figures.completion);
      console.log(`  run ${round + 1} ${name.padEnd(5)} start → initialized ${msText(figures.startMs)}; open → diagnostics ${msText(figures.openMs)} (main thread CPU ${msText(figures.openCpuMs)}${Number.isNaN(figures.openRequestsMs) ? '' : `; folding, outline and lenses answered at ${msText(figures.openRequestsMs)}`}); completion p50 ${msText(s.p50)} p95 ${msText(s.p95)} max ${msText(s.max)} (main thread CPU ${msText(figures.cpuPerKeyMs)} a key); ${figures.diagnosticsWhileTyping} diagnostics published while typing${name === 'null' ? '' : `, ${figures.duringValidation} completions asked while a validation ran`}`);
    }
  }
  rmSync(work, { recursive: true, force: true });
  const p95 = (name: string): number => median(results.get(name)!.map((f) => summary(f.completion).p95));
  const open = (name: string): number => median(results.get(name)!.map((f) => f.openMs));
  const start = (name: string): number => median(results.get(name)!.map((f) => f.startMs));
  console.log(`  start → initialize answered (median): ours ${msText(start('ours'))}, null server ${msText(start('null'))}; didOpen → our folding, outline and lenses answered (median) ${msText(median(results.get('ours')!.map((f) => f.openRequestsMs)))}`);
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
