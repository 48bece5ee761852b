// Reading an object body the way the exchange does under a generic items= path (readAnywhere with the
// strategy's streamRows, rows written as NDJSON), for the tests of what its skeleton keeps. Not a test
// (no .test.ts suffix).
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';
import { genericStrategy } from '../../src/core/paging/strategies/generic';

const CHUNK = 65_536;

type AnywhereBody = Awaited<ReturnType<typeof readAnywhere>>;

/** `text` read in 64 KiB chunks under `# @paging generic` with `options` (items=…): the read and the NDJSON lines written. */
export async function readAtPath(text: string, options: Record<string, string>): Promise<{ got: AnywhereBody; lines: string[] }> {
  const strategy = genericStrategy(options, { maxRetries: 0, maxRetryDelayMs: 0, retryDelayMs: 0 });
  const at = strategy.streamRows!;
  const bytes = Buffer.from(text);
  const written: string[] = [];
  const got = await readAnywhere(async (each) => {
    for (let i = 0; i < bytes.length; i += CHUNK) await each(bytes.subarray(i, i + CHUNK));
  }, (b) => at.anywhere!(b, { headers: {} }), (b) => { written.push(Buffer.concat(b).toString('utf8')); return Promise.resolve(); }, true, undefined, at);
  return { got, lines: written.join('').split('\n').filter(Boolean) };
}

/** `text` read in 64 KiB chunks with no paging style (rows found anywhere): its skeleton. Throws when the read fails. */
export async function readSkeleton(text: string): Promise<Record<string, unknown>> {
  const rule = rowsRule('none', {});
  const bytes = Buffer.from(text);
  const got = await readAnywhere(async (each) => {
    for (let i = 0; i < bytes.length; i += CHUNK) await each(bytes.subarray(i, i + CHUNK));
  }, (b) => rule.find(b), () => Promise.resolve(), true);
  if (!got.body.ok) throw new Error(got.body.error);
  return got.body.value as Record<string, unknown>;
}
