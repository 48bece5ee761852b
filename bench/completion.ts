// Benchmark: the language server over stdio, as an editor drives it, on a 5 000- and a 50 000-line
// `.http` file, against a null server (bench/completion/nullServer.ts: same document sync, answers nothing) in the
// same run:
// - open → first diagnostics: from didOpen sent to the first publishDiagnostics received. Our server
//   publishes a file it has just opened as its validation goes (the top of the file first, src/server/
//   server.ts), so the bench also times open → complete diagnostics: the last publication of the opened
//   version received before the open-time requests below were answered (our server answers them only
//   once it has handed the whole file's diagnostics to the transport; a server that publishes once has
//   both figures equal);
//   As the editor does when a file opens, the folding ranges, outline and lenses are asked right after
//   the didOpen, of a server that declares them (ours; the null server declares none, so an editor asks
//   it nothing): a server that answered them first would publish later. When they were answered is
//   printed beside the figure;
// - typing at 10 and at 50 keys/s (issue 37): words of 6 characters typed into JSON bodies, a keystroke
//   every 100 (20) ms, then
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
// Goals (issue 14): completion p95 < 10 ms at 10 keys/s; (issue 37) p95 < 5 ms at 50 keys/s on 50 000
// lines, within 20 % of the 5 000-line file's; open → first diagnostics at most 2× the null server's.
// Typing latency over stdio on a shared 2-core machine is mostly waiting for a core: one round's p95 of a
// few dozen keys swings by 2× from one round to the next. So every server and size runs in every round,
// back to back (sizes and servers alternating their order), and the figures are medians of the rounds:
// of each round's p95, of each round's 50 000 : 5 000 ratio (the two sessions of one round met the same
// load), and the p95 of every round's keys pooled. Beside them, the server's main-thread CPU time a
// keystroke while a word is typed (the edit and its completion, no validation: it waits for a pause),
// which a busy machine does not lengthen: what a keystroke costs the server, by file size; and beside
// it the same over all the server's threads (V8 compiles hot functions and collects garbage on threads
// of its own, which take a core from the editor on a 2-core machine: in a fresh server typed into, its
// optimising compiler adds about 0.4 ms a keystroke at 50 keys/s over the first few hundred keys).
// Prints figures; asserts nothing.
//   node --import tsx bench/completion.ts [--lines N] [--words W] [--rounds R] [--rates 10,50] [--profile DIR]
// --profile DIR: our server runs with --cpu-prof, its profiles written to DIR (to see what a figure is made of).
// --compare DIR: also runs the server of another checkout (e.g. main) in the same rounds, logged as 'other'.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import {
  CodeLensRequest, CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, FoldingRangeRequest,
} from 'vscode-languageserver-protocol/node';
import { startLspSession, type LspSession } from '../test/server/lspClient';
import { VALIDATION_DELAY_MS } from '../src/server/server';
import { arg, loadNote, mainThreadCpuMs, median, msText, printRow } from './lib/measure';
import { buildLargeHttpFile, completionPoints, summary, type CompletionPoint } from './completion/workload';

/** Typing rates measured, in keys a second (issue 37: 10 and 50). */
const RATES = [10, 50];
/** File sizes measured, in lines (issue 37: 5 000 and 50 000); `--lines N` measures only N. */
const SIZES = [5_000, 50_000];
/** Pauses after each word, in turn; the validation delay is 200 ms (src/server/server.ts). */
const PAUSES_MS = [250, 300, 400, 600];

/** CPU time (ms) a process's main thread has run, or NaN where it cannot be read. */
const mainThreadCpuMsOrNaN = (pid: number | undefined): number => mainThreadCpuMs(pid) ?? Number.NaN;
const WORD = 'Preti_';

/** CPU time (ms) all of a process's threads have run (the schedstat of each of /proc/<pid>/task), or NaN where it cannot be read. */
function allThreadsCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns > 0 ? ns / 1e6 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

interface Typing {
  readonly completion: number[];
  readonly diagnosticsWhileTyping: number;
  /** Main-thread CPU time of the server while typing, per keystroke (changes, completions, validations). */
  readonly cpuPerKeyMs: number;
  /** Of the completions, how many were asked while a validation had started and not yet published. */
  readonly duringValidation: number;
  /** Main-thread CPU time of the server a keystroke while words are typed (pauses left out: no validation). */
  readonly typingCpuPerKeyMs: number;
  /** The same over all the server's threads (its main thread, V8's compiler and garbage collector threads). */
  readonly typingAllThreadsCpuPerKeyMs: number;
}

interface Figures {
  /** Spawn → initialize answered. */
  readonly startMs: number;
  readonly openMs: number;
  /** didOpen sent → the opened version's last publication before the open-time requests were answered. */
  readonly openCompleteMs: number;
  readonly openCpuMs: number;
  /** didOpen sent → the last of the editor's open-time requests answered (NaN: the server declares none). */
  readonly openRequestsMs: number;
  /** By rate (keys a second). */
  readonly typing: ReadonlyMap<number, Typing>;
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

/** A document open in a session, typed into: its version and the diagnostics published for it. */
interface OpenDocument { readonly uri: string; version: number; published: number; lastPublishedAt: number }

/** Types `words` words at `rate` keys a second into body keys at `points`, a completion asked after each key. */
async function type(session: LspSession, doc: OpenDocument, points: readonly CompletionPoint[], rate: number): Promise<Typing> {
  const keyInterval = 1000 / rate;
  const completion: number[] = [];
  const cpuBeforeTyping = mainThreadCpuMsOrNaN(session.child.pid);
  const publishedBefore = doc.published;
  let clock = performance.now() + PAUSES_MS.at(-1)!;
  // A validation may be running from 200 ms after a word's last key until its diagnostics come.
  let validationDueAt = Infinity;
  let publishedAtDue = 0;
  let duringValidation = 0;
  let typingCpuMs = 0;
  let typingAllThreadsCpuMs = 0;
  for (const [index, point] of points.entries()) {
    await at(clock);
    const wordCpuBefore = mainThreadCpuMsOrNaN(session.child.pid);
    const wordAllThreadsCpuBefore = allThreadsCpuMs(session.child.pid);
    for (let k = 0; k < WORD.length; k++) {
      await at(clock);
      if (performance.now() >= validationDueAt && doc.published === publishedAtDue) duringValidation++;
      clock += keyInterval;
      doc.version++;
      const character = point.character + 1 + k; // after the key's opening quote
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ range: { start: { line: point.line, character }, end: { line: point.line, character } }, text: WORD[k]! }],
      });
      const started = performance.now();
      await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: doc.uri }, position: { line: point.line, character: character + 1 } });
      completion.push(performance.now() - started);
    }
    typingCpuMs += mainThreadCpuMsOrNaN(session.child.pid) - wordCpuBefore;
    typingAllThreadsCpuMs += allThreadsCpuMs(session.child.pid) - wordAllThreadsCpuBefore;
    validationDueAt = clock - keyInterval + VALIDATION_DELAY_MS;
    publishedAtDue = doc.published;
    clock += PAUSES_MS[index % PAUSES_MS.length]! - keyInterval;
  }
  await at(clock);
  const cpuPerKeyMs = (mainThreadCpuMsOrNaN(session.child.pid) - cpuBeforeTyping) / Math.max(1, completion.length);
  return { completion, diagnosticsWhileTyping: doc.published - publishedBefore, cpuPerKeyMs, duringValidation, typingCpuPerKeyMs: typingCpuMs / Math.max(1, completion.length),
    typingAllThreadsCpuPerKeyMs: typingAllThreadsCpuMs / Math.max(1, completion.length),
  };
}

async function drive(session: LspSession, text: string, words: number, rates: readonly number[], startMs: number): Promise<Figures> {
  const doc: OpenDocument = { uri: 'file:///bench/large.http', version: 1, published: 0, lastPublishedAt: Number.NaN };
  // A waiter that never accepts counts every publication (the client has one handler per method).
  void session.nextDiagnostics(doc.uri, () => { doc.published++; doc.lastPublishedAt = performance.now(); return false; });
  const first = session.nextDiagnostics(doc.uri);
  const cpuBefore = mainThreadCpuMsOrNaN(session.child.pid);
  const opened = performance.now();
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: doc.uri, languageId: 'http', version: 1, text } });
  const asks = editorOpenRequests(session, doc.uri);
  await first;
  const openMs = performance.now() - opened;
  const openRequestsMs = asks.length === 0 ? Number.NaN : (await Promise.all(asks), performance.now() - opened);
  const openCompleteMs = doc.lastPublishedAt - opened;
  const openCpuMs = mainThreadCpuMsOrNaN(session.child.pid) - cpuBefore;
  // Each rate types into its own body keys (the same ones in every round and for every server).
  const points = completionPoints(text, words * RATES.length * 12).filter((p) => p.kind === 'body-key');
  const typing = new Map<number, Typing>();
  for (const rate of rates) {
    const r = RATES.indexOf(rate);
    typing.set(rate, await type(session, doc, points.slice(r * words, (r + 1) * words), rate));
  }
  return { startMs, openMs, openCompleteMs, openCpuMs, openRequestsMs, typing };
}

async function main(): Promise<void> {
  const sizes = process.argv.includes('--lines') ? [arg('lines', 50_000)] : SIZES;
  const words = arg('words', 12);
  const rounds = arg('rounds', 3);
  const ratesAt = process.argv.indexOf('--rates');
  const rates = ratesAt >= 0 ? (process.argv[ratesAt + 1] ?? '').split(',').map(Number).filter((r) => RATES.includes(r)) : RATES;
  if (rates.length === 0) throw new Error(`--rates: some of ${RATES.join(',')}`);
  const profile = process.argv.indexOf('--profile');
  const profiling = profile >= 0 ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${process.argv[profile + 1] ?? '.'}`] : [];
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
  const results = new Map<string, Figures[]>(sizes.flatMap((lines) => Object.keys(servers).map((name) => [`${name} ${lines}`, []])));
  const texts = new Map(sizes.map((lines) => [lines, buildLargeHttpFile(lines)]));
  console.log(`completion: ${sizes.map((n) => `${n.toLocaleString('en-US')}`).join(' and ')}-line files, ${words} words of ${WORD.length} keys at ${rates.join(' and ')} keys/s with pauses of ${PAUSES_MS.join(', ')} ms, ${rounds} rounds; ${loadNote()}`);
  for (let round = 0; round < rounds; round++) {
    for (const lines of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      const names = Object.keys(servers);
      for (const name of round % 2 === 0 ? names : names.reverse()) {
        const started = performance.now();
        const session = await startLspSession(servers[name]);
        const load = loadavg()[0]!.toFixed(1);
        const figures = await drive(session, texts.get(lines)!, words, rates, performance.now() - started);
        await session.close();
        results.get(`${name} ${lines}`)!.push(figures);
        const typed = [...figures.typing].map(([rate, t]) => {
          const s = summary(t.completion);
          return `${rate} keys/s: completion p50 ${msText(s.p50)} p95 ${msText(s.p95)} max ${msText(s.max)} (CPU ${msText(t.cpuPerKeyMs)} a key, ${msText(t.typingCpuPerKeyMs)} while typing, ${msText(t.typingAllThreadsCpuPerKeyMs)} all threads; ${t.diagnosticsWhileTyping} published${name === 'null' ? '' : `, ${t.duringValidation} asked while a validation ran`})`;
        });
        console.log(`  run ${round + 1} ${String(lines).padStart(6)} lines ${name.padEnd(5)} load ${load}; start → initialized ${msText(figures.startMs)}; open → first diagnostics ${msText(figures.openMs)}, complete ${msText(figures.openCompleteMs)} (CPU ${msText(figures.openCpuMs)}${Number.isNaN(figures.openRequestsMs) ? '' : `; folding, outline, lenses at ${msText(figures.openRequestsMs)}`}); ${typed.join('; ')}`);
      }
    }
  }
  rmSync(work, { recursive: true, force: true });
  const of = (name: string, lines: number): Figures[] => results.get(`${name} ${lines}`) ?? [];
  const keys = (f: Figures, rate: number): number[] => f.typing.get(rate)?.completion ?? [];
  /** Median over the rounds of each round's percentile. */
  const pct = (name: string, lines: number, rate: number, p: 'p50' | 'p95'): number => median(of(name, lines).map((f) => summary(keys(f, rate))[p]));
  /** The p95 of every round's keys together. */
  const pooled = (name: string, lines: number, rate: number): number => summary(of(name, lines).flatMap((f) => keys(f, rate))).p95;
  /** Median over the rounds of the server's CPU a keystroke while typing. */
  const typingCpu = (name: string, lines: number, rate: number): number => median(of(name, lines).map((f) => f.typing.get(rate)?.typingCpuPerKeyMs ?? Number.NaN));
  /** The same over all the server's threads. */
  const typingAllCpu = (name: string, lines: number, rate: number): number => median(of(name, lines).map((f) => f.typing.get(rate)?.typingAllThreadsCpuPerKeyMs ?? Number.NaN));
  /** Median over the rounds of each round's big : small p95 (the two sessions of a round met the same load). */
  const pairedRatio = (name: string, big: number, small: number, rate: number): number => {
    const smalls = of(name, small);
    return median(of(name, big).map((f, round) => summary(keys(f, rate)).p95 / summary(keys(smalls[round]!, rate)).p95));
  };
  const open = (name: string, lines: number): number => median(of(name, lines).map((f) => f.openMs));
  const complete = (name: string, lines: number): number => median(of(name, lines).map((f) => f.openCompleteMs));
  console.log('\n  | server | lines | open → first diagnostics | open → complete diagnostics | ' + rates.map((r) => `${r} keys/s p50 / p95 (pooled p95; CPU a key typing, main thread / all threads)`).join(' | ') + ' |');
  console.log('  |---|---|---|---|' + rates.map(() => '---|').join(''));
  for (const lines of sizes) {
    for (const name of Object.keys(servers)) {
      const typed = rates.map((r) => `${msText(pct(name, lines, r, 'p50'))} / ${msText(pct(name, lines, r, 'p95'))} (${msText(pooled(name, lines, r))}; ${msText(typingCpu(name, lines, r))} / ${msText(typingAllCpu(name, lines, r))})`);
      console.log(`  | ${name} | ${lines.toLocaleString('en-US')} | ${msText(open(name, lines))} | ${msText(complete(name, lines))} | ${typed.join(' | ')} |`);
    }
  }
  console.log(`  (medians of ${rounds} rounds of ${words} words (${words * WORD.length} keys a rate); pooled: the p95 of all rounds' keys${compare >= 0 ? '; other: the server of ' + (process.argv[compare + 1] ?? '.') : ''}); ${loadNote()}`);
  const big = sizes.at(-1)!;
  const small = sizes[0]!;
  const bigText = big.toLocaleString('en-US');
  const smallText = small.toLocaleString('en-US');
  const goalRate = rates.at(-1)!;
  if (small !== big) {
    console.log(`\n  ${goalRate} keys/s, ${smallText} → ${bigText} lines, in this run:`);
    for (const name of Object.keys(servers)) {
      const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
      console.log(`    ${name.padEnd(5)} p95 ${msText(pct(name, small, goalRate, 'p95'))} → ${msText(pct(name, big, goalRate, 'p95'))} (${ratio(pct(name, big, goalRate, 'p95'), pct(name, small, goalRate, 'p95'))}; median of the rounds' ratios ${pairedRatio(name, big, small, goalRate).toFixed(2)}×); pooled p95 ${msText(pooled(name, small, goalRate))} → ${msText(pooled(name, big, goalRate))} (${ratio(pooled(name, big, goalRate), pooled(name, small, goalRate))}); CPU a key while typing ${msText(typingCpu(name, small, goalRate))} → ${msText(typingCpu(name, big, goalRate))} (${ratio(typingCpu(name, big, goalRate), typingCpu(name, small, goalRate))}; all threads ${msText(typingAllCpu(name, small, goalRate))} → ${msText(typingAllCpu(name, big, goalRate))})`);
    }
  }
  for (const rate of rates) {
    const goal = rate === 50 ? 5 : 10;
    printRow({
      measure: `completion while typing at ${rate} keys/s, ${bigText}-line file, stdio`, ours: `p95 ${msText(pct('ours', big, rate, 'p95'))} (pooled ${msText(pooled('ours', big, rate))})`,
      baseline: `null server p95 ${msText(pct('null', big, rate, 'p95'))}${servers.other ? `; other ${msText(pct('other', big, rate, 'p95'))}` : ''}`,
      ratio: `${(pct('ours', big, rate, 'p95') / pct('null', big, rate, 'p95')).toFixed(1)}×`, peakRss: '-', goal: `p95 < ${goal} ms`, met: pct('ours', big, rate, 'p95') < goal,
    });
  }
  if (small !== big) {
    const growth = pct('ours', big, goalRate, 'p95') / pct('ours', small, goalRate, 'p95');
    printRow({
      measure: `completion p95 at ${goalRate} keys/s, ${bigText} against ${smallText} lines`,
      ours: `${msText(pct('ours', big, goalRate, 'p95'))} against ${msText(pct('ours', small, goalRate, 'p95'))} (rounds' ratios: median ${pairedRatio('ours', big, small, goalRate).toFixed(2)}×; CPU a key ${msText(typingCpu('ours', big, goalRate))} against ${msText(typingCpu('ours', small, goalRate))})`,
      baseline: `null server ${msText(pct('null', big, goalRate, 'p95'))} against ${msText(pct('null', small, goalRate, 'p95'))}`,
      ratio: `${growth.toFixed(2)}×`, peakRss: '-', goal: 'within 20 %', met: growth <= 1.2,
    });
  }
  printRow({
    measure: `open → first diagnostics, ${bigText}-line file`, ours: `${msText(open('ours', big))} (complete diagnostics ${msText(complete('ours', big))})`, baseline: `null server ${msText(open('null', big))}`,
    ratio: `${(open('ours', big) / open('null', big)).toFixed(1)}×`, peakRss: '-', goal: '≤ 2× the null server', met: open('ours', big) <= 2 * open('null', big),
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
