// The strongest honest node baseline: plain undici, no parsing, the response bytes piped to a file as
// they arrive. Plain node (no tsx loader) so its start-up is node's own. The bearer token comes from
// APIWB_BENCH_TOKEN (never the command line).
//   node bench/lib/rawClient.mjs single <url> <out> [json-body]   one request, body bytes to <out>
//   node bench/lib/rawClient.mjs walk <url> <out>                 export-ordinal pages (OFFSET 1, 2, ...)
//                                                                 appended to <out> until a short page
//   node bench/lib/rawClient.mjs loop <requests.json> <out>        the requests of the file one after the
//                                                                 other, bodies read and dropped; `$TOKEN`
//                                                                 and `$BASIC` in headers come from
//                                                                 APIWB_BENCH_TOKEN and APIWB_BENCH_BASIC
import { createWriteStream } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
// undici's Agent and request() only, loaded as apiwb loads them (src/core/http/undiciCore.ts): undici's
// index.js also loads fetch, WebSocket, caches and mocks, about 40 ms of start-up this baseline would pay
// and apiwb does not.
import Agent from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

// As apiwb does (src/cli/main.ts, REQUEST_SENDER_FLAGS in src/cli/v8Flags.ts): llhttp is optimised later, so a short run does
// not wait ~100 ms at exit for its optimised compile on background threads; a long one still is. And
// JS is optimised only once it stays hot (the interrupt budget), which spares this loop some background
// compiling too; the same inlining budget, and the same heap growth: the baseline keeps every saving apiwb has.
setFlagsFromString('--wasm-tiering-budget=2147483647 --interrupt-budget=500000 --max-inlined-bytecode-size-cumulative=4000 --heap-growing-percent=50');

const agent = new Agent();
/** undici's request(url, options) on one Agent, as its index.js glues it. */
function request(url, options) {
  const { origin, pathname, search } = new URL(url);
  return apiRequest.call(agent, { ...options, origin, path: `${pathname}${search}` });
}

const [mode, url, out, body] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.APIWB_BENCH_TOKEN ?? ''}`, 'content-type': 'application/json' };
// An 8 MiB write buffer: with the default 16 KiB, every 64 KiB chunk waited for its write before the next
// read, which paced the download by the disk (apiwb writes 1 MiB parts and was faster than this baseline).
const file = createWriteStream(out, { highWaterMark: 8 * 1024 * 1024 });

/** Sends one POST and writes its body to the file; returns the body's length and its first bytes. */
async function fetchInto(payload) {
  const res = await request(url, { method: 'POST', headers, body: payload });
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  let length = 0;
  let head = '';
  for await (const chunk of res.body) {
    if (head.length < 200) head += chunk.toString('latin1', 0, Math.min(chunk.length, 200));
    length += chunk.length;
    if (!file.write(chunk)) await new Promise((resolve) => file.once('drain', resolve));
  }
  return { length, head };
}

if (mode === 'loop') {
  const { readFileSync } = await import('node:fs');
  const list = JSON.parse(readFileSync(url, 'utf8'));
  const fill = (value) => value.replace('$TOKEN', process.env.APIWB_BENCH_TOKEN ?? '').replace('$BASIC', process.env.APIWB_BENCH_BASIC ?? '');
  let ok = 0;
  for (const r of list) {
    const res = await request(r.url, { method: r.method, headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, fill(v)])), ...(r.body ? { body: r.body } : {}) });
    await res.body.arrayBuffer();
    if (res.statusCode < 400) ok++;
  }
  file.write(`${ok}/${list.length} answered < 400\n`);
} else if (mode === 'single') {
  await fetchInto(body ?? '{}');
} else {
  // The table name is in the first bytes of page 1 ({"TableName":"SEL_…"); the walk ends at a page
  // shorter than the first (the short or empty last page).
  let tableName = '';
  let first = 0;
  for (let offset = 1; ; offset++) {
    const page = await fetchInto(JSON.stringify({ OFFSET: offset, TableName: tableName }));
    if (offset === 1) {
      first = page.length;
      tableName = /"TableName":"([^"]+)"/.exec(page.head)?.[1] ?? '';
    }
    if (page.length < first || offset > 10_000) break;
  }
}
await new Promise((resolve, reject) => file.end((error) => (error ? reject(error) : resolve())));
