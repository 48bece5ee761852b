// Completion latency on a 5 000-line `.http` file, through the pure language service and through the
// real server over stdio. Run: npx tsx bench/completion.ts [iterations]. Prints figures; asserts nothing.
//
// Each sample is a keystroke's worth of work: a new document version, then a completion at a random
// body key, body value or URL position. Baselines in the same run: JSON.parse of the request body under
// the cursor, and a full parse of the whole file (what a non-incremental server would redo).
import { performance } from 'node:perf_hooks';
import { CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { parseHttpFile } from '../src/core/httpfile';
import { createHttpLanguageService, HttpDocument } from '../src/server/service';
import { startLspSession } from '../test/server/lspClient';
import { buildLargeHttpFile, completionPoints, summary } from './completion/workload';

const iterations = Number(process.argv[2] ?? 400);
const environment = ['engagement_base_url', 'fundraising_base_url', 'booking_base_url', 'tenant_code', 'ctcID'];
const text = buildLargeHttpFile(5000);
const lineCount = text.split('\n').length;
const points = completionPoints(text, iterations);
const format = (s: { p50: number; p95: number; max: number }): string => `p50 ${s.p50.toFixed(3)} ms  p95 ${s.p95.toFixed(3)} ms  max ${s.max.toFixed(3)} ms`;

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

async function main(): Promise<void> {
  console.log(`completion bench: ${lineCount} lines, ${parseHttpFile(text).requests.length} requests, ${points.length} completions`);

  // Baselines.
  const jsonParse = summary(points.map((p) => time(() => { if (p.body) JSON.parse(p.body.replace(/\{\{[^}]*\}\}/g, '0')); })));
  const fullParse = summary(points.slice(0, Math.min(points.length, 100)).map(() => time(() => parseHttpFile(text))));

  // The language service, a new version per completion (nothing cached from the previous keystroke).
  const service = createHttpLanguageService();
  service.setEnvironmentVariables(environment);
  for (const p of points.slice(0, 20)) service.doComplete(new HttpDocument('file:///bench.http', 0, text), p); // warm-up
  let empty = 0;
  const byKind = new Map<string, number[]>();
  const serviceSamples = points.map((p, version) => {
    let count = 0;
    const ms = time(() => { count = service.doComplete(new HttpDocument('file:///bench.http', version + 1, text), p).items.length; });
    if (count === 0) empty++;
    byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), ms]);
    return ms;
  });
  const serviceStats = summary(serviceSamples);

  // The real server over stdio: an incremental edit (a new version) then a completion, per sample.
  const session = await startLspSession();
  const uri = 'file:///bench.http';
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
  const lastLine = lineCount - 1;
  let version = 1;
  const serverSamples: number[] = [];
  for (const [index, p] of points.entries()) {
    version++;
    // Type and delete a space at the end of the file, alternately: every completion sees a new version.
    const change = version % 2 === 0
      ? { range: { start: { line: lastLine, character: 0 }, end: { line: lastLine, character: 0 } }, text: ' ' }
      : { range: { start: { line: lastLine, character: 0 }, end: { line: lastLine, character: 1 } }, text: '' };
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [change] });
    const start = performance.now();
    await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: p });
    if (index >= 20) serverSamples.push(performance.now() - start); // the first 20 warm the server up
  }
  const serverStats = summary(serverSamples);
  await session.close();

  console.log(`  baseline JSON.parse of the body : ${format(jsonParse)}`);
  console.log(`  baseline full parse of the file : ${format(fullParse)}`);
  console.log(`  language service (new version)  : ${format(serviceStats)}   (${empty} empty lists)`);
  for (const [kind, samples] of byKind) console.log(`    ${kind.padEnd(11)}: ${format(summary(samples))}`);
  console.log(`  server over stdio (round trip)  : ${format(serverStats)}`);
  console.log(`  ratios: service p95 / JSON.parse p95 = ${(serviceStats.p95 / Math.max(jsonParse.p95, 1e-6)).toFixed(1)}x; service p95 / full parse p50 = ${(serviceStats.p95 / Math.max(fullParse.p50, 1e-6)).toFixed(2)}x; goal p95 < 10 ms: service ${serviceStats.p95 < 10 ? 'met' : 'missed'}, server ${serverStats.p95 < 10 ? 'met' : 'missed'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
