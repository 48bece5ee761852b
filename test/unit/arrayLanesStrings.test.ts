// The cut of an object body into its arrays one and two levels down (src/core/json/arrayLanes.ts) reads
// strings to know that their brackets and quotes are text: a short string's end is looked for byte by byte,
// a long one's (past 24 bytes) by a native search. Escaped quotes and backslashes, brackets inside strings,
// keys with escapes, short and long, at every cut of the body into two chunks and in chunks of 1 to 7
// bytes: each lane's bytes are exactly its array's content as JSON.stringify wrote it (the oracle).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ArrayLanes, type LaneEvents } from '../../src/core/json/arrayLanes';

/** The lanes a body is cut into: their keys and their bytes, joined. */
function cut(body: Buffer, chunks: readonly Buffer[]): { keys: string; text: string }[] {
  const lanes: { keys: string; parts: Buffer[] }[] = [];
  let outside = 0;
  const events: LaneEvents = {
    outside: (b) => { outside += b.length; },
    open: (keys) => { lanes.push({ keys: keys.join('.'), parts: [] }); },
    inside: (b) => { lanes[lanes.length - 1]!.parts.push(Buffer.from(b)); },
    close: () => undefined,
  };
  const reader = new ArrayLanes(new Set(['Errors']));
  for (const chunk of chunks) reader.push(chunk, events);
  const result = lanes.map((l) => ({ keys: l.keys, text: Buffer.concat(l.parts).toString('utf8') }));
  assert.equal(outside + result.reduce((n, l) => n + Buffer.byteLength(l.text), 0), body.length, 'every byte handed on once');
  return result;
}

/** The oracle: every array one level down, and two (inside an object one level down), in body order. */
function expected(value: Record<string, unknown>): { keys: string; text: string }[] {
  const out: { keys: string; text: string }[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (Array.isArray(field) && key !== 'Errors') out.push({ keys: key, text: JSON.stringify(field).slice(1, -1) });
    else if (field !== null && typeof field === 'object') {
      for (const [inner, item] of Object.entries(field as Record<string, unknown>)) {
        if (Array.isArray(item) && inner !== 'Errors') out.push({ keys: `${key}.${inner}`, text: JSON.stringify(item).slice(1, -1) });
      }
    }
  }
  return out;
}

const LONG = 'x'.repeat(30);
const BODIES: Record<string, unknown>[] = [
  { a: ['q"]', 'b\\', '\\"', '"]}', { k: '\\\\"[' }], b: 1 },
  { 'k"]': ['v'], 'k\\': { 'i"[': ['\\', ']'], j: '"' }, c: [`${LONG}"]`, `${LONG}\\`, `\\"${LONG}]`] },
  { s: `${LONG}\\"]}${LONG}`, a: [[`]${LONG}"`], { '"': `[${LONG}\\\\` }], Errors: ['"]'], o: { Errors: ['x'], r: ['\u00e9"]', '😀\\'] } },
  { a: ['\\\\', '\\\\\\"', '', '"', `${'\\'.repeat(25)}"`, `${'"'.repeat(25)}`], z: { y: [`${LONG}${LONG}\\"${LONG}`] } },
];

void describe('arrayLanes: strings read to their end, short and long', () => {
  for (const [n, value] of BODIES.entries()) {
    void it(`body ${n + 1}: every lane's bytes are its array's content, at every cut`, () => {
      const body = Buffer.from(JSON.stringify(value));
      const want = expected(value);
      assert.deepEqual(cut(body, [body]), want);
      for (let at = 1; at < body.length; at++) assert.deepEqual(cut(body, [body.subarray(0, at), body.subarray(at)]), want, `cut at ${at}`);
      for (let size = 1; size <= 7; size++) {
        const chunks: Buffer[] = [];
        for (let at = 0; at < body.length; at += size) chunks.push(body.subarray(at, at + size));
        assert.deepEqual(cut(body, chunks), want, `chunks of ${size}`);
      }
    });
  }
});
