// A page whose rows are only counted (apiwb run without --out) may be parsed whole by JSON.parse instead of
// split (src/core/paging/pageFetch.ts, countedRows): on every body, hostile ones included, the page fetched
// that way is the page the row splitter makes (the value the strategy sees, its key order, the row count,
// the words of a refusal), and where JSON.parse could read a body otherwise, the splitter reads it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpPort, StreamingResponse } from '../../src/core/http/client';
import { MAX_JSON_DEPTH } from '../../src/core/json/depth';
import { HeldScan } from '../../src/core/json/heldScan';
import { HELD, heldParse } from '../../src/core/paging/heldBody';
import { countedRows, fetchStreamed, type FetchedPage } from '../../src/core/paging/pageFetch';

/** An HTTP port answering every request with `body` (a 200, its length declared unless told otherwise). */
function port(body: Buffer, headers: Record<string, string> = { 'content-length': String(body.length) }, pieces = 1): HttpPort {
  const stream = (): Promise<StreamingResponse> => Promise.resolve({
    status: 200, statusText: 'OK', headers, startedAt: 0, firstByteMs: 0, redirects: [],
    read: async (each) => {
      const size = Math.max(1, Math.ceil(body.length / pieces));
      for (let at = 0; at < body.length; at += size) await each(body.subarray(at, at + size));
    },
    discard: () => Promise.resolve(),
  });
  return { send: () => Promise.reject(new Error('not used')), stream };
}

/** countedRows of a body as the held path asks it: only once heldParse read it (undefined: declined before). */
function counted(bytes: Buffer, field: string | undefined): ReturnType<typeof countedRows> {
  const scan = new HeldScan(MAX_JSON_DEPTH);
  scan.push(bytes);
  const held = heldParse(bytes, scan);
  return held && countedRows(held, field);
}

/** What a fetched page says, keys in their order. */
function said(page: FetchedPage | Error): unknown {
  if (page instanceof Error) return { threw: page.message };
  const order = (value: unknown): unknown => (value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : undefined);
  return {
    ok: page.body.ok, error: page.body.ok ? undefined : page.body.error,
    value: page.body.ok ? JSON.stringify(page.body.value) : undefined, keys: page.body.ok ? order(page.body.value) : undefined,
    rows: page.streamed?.rowCount, placeholder: page.streamed?.placeholder.length, sameArray: page.streamed && page.body.ok ? Object.values(page.body.value as object).includes(page.streamed.placeholder) || page.body.value === page.streamed.placeholder : undefined,
    // A refused body's size is what had arrived when the splitter stopped (as the network cut it): only a read body's is fixed.
    size: page.body.ok ? page.response.sizeBytes : undefined,
  };
}

async function fetchBoth(body: Buffer, field: string | undefined, headers?: Record<string, string>): Promise<[unknown, unknown]> {
  const request = { method: 'GET', url: 'http://127.0.0.1:9/page', headers: {} };
  const get = (rowBytes: boolean): Promise<unknown> => fetchStreamed(port(body, headers, 3), request, {}, field === undefined ? {} : { field }, undefined, rowBytes).then(said, (error: Error) => said(error));
  return [await get(true), await get(false)];
}

const CORPUS = [
  '{"Result":[]}', '{"Result":[{}]}', ' \t\r\n{ "Result" : [ 1 , "a" , null ] } \n', '{"T":"x","Result":[{"a":[1,{"b":"}],{"}}]}],"R":0}',
  '{"Result":[-0,0.5,1e3,1E+3,-1.25e-7,123456789012345678901234567890]}', '{"Result":["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00"]}',
  '{"Result":["Zoë 東京 😀"],"k\\u0065y":"v"}', '{"Result":[true,false,null,[],{},[[]],{"":{}}]}', '{"Result":[1,2],"Other":[3]}',
  '{"a":{"Result":[1]}}', '{"Result":{"a":[1]}}', '{"Result":null}', '{"Result":"Result"}', '{"x":"Result","Result":[1,2]}',
  '{"Result":[1]', '{"Result":[1]}}', '{"Result":[1]} x', '{"Result":[1,]}', '{"Result":[01]}', "{'Result':[1]}", '{"Result":[NaN]}',
  '', '   ', '[1,2]', '[]', 'null', '1', '"Result"', '\ufeff{"Result":[]}', '{"Result":[1]}\u00a0', '{"Result":["\t"]}',
  // The rows field twice (the splitter refuses it after its rows; before them the later one wins), and spelt with an escape.
  '{"Result":[{"a":1}],"Result":2}', '{"Result":1,"Result":[{"a":1}]}', '{"Result":[1],"Result":[2,3]}', '{"R\\u0065sult":[1,2],"Result":[3]}',
  '{"Result":[3],"R\\u0065sult":[1,2]}', '{"__proto__":{"x":1},"Result":[1],"constructor":2}', '{"b":1,"a":2,"Result":[1],"b":3}',
  `{"Result":[${'['.repeat(3000)}${']'.repeat(3000)},1],"deep":${'['.repeat(700)}${']'.repeat(700)}}`,
  '{"Result":["\xff\xfe"],"n":"\xc3"}',
];

void describe('countedRows', () => {
  void it('makes the page the splitter makes, for every body of the corpus, as a field and as a top-level array', async () => {
    let countedBodies = 0;
    for (const text of CORPUS) {
      for (const [field, body] of [['Result', text], [undefined, text.replace(/^\s*\{"Result":/, '').replace(/\}\s*$/, '')]] as const) {
        const bytes = Buffer.from(body, body.includes('\xff') ? 'latin1' : 'utf8');
        const [split, wholeParse] = await fetchBoth(bytes, field);
        assert.deepEqual(wholeParse, split, `${JSON.stringify(body)} as ${field ?? 'an array'}`);
        if (counted(bytes, field)) countedBodies++;
      }
    }
    assert.ok(countedBodies >= 30, `${countedBodies} bodies counted by JSON.parse: the corpus tries that path, not only the splitter's`);
  });

  void it('on every one-byte mutation of a sample page', async () => {
    const sample = Buffer.from(JSON.stringify({ TableName: 'T_1', Result: [{ id: 1, n: -1.5e3, t: true, z: null, l: [0, {}] }, 'x', 2], R: 0 }), 'utf8');
    for (let at = 0; at <= sample.length; at++) {
      for (const b of [0x22, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x30, 0x20, 0x00, 0xff]) {
        const variant = Buffer.concat([sample.subarray(0, at), Buffer.of(b), sample.subarray(at)]);
        const [split, counted] = await fetchBoth(variant, 'Result');
        assert.deepEqual(counted, split, variant.toString('latin1'));
      }
    }
  });

  void it('leaves to the splitter what JSON.parse might read otherwise: a key given twice, however spelt, not JSON; counts the rest', () => {
    assert.equal(counted(Buffer.from('{"Result":[1],"Result":[2]}'), 'Result'), undefined);
    assert.equal(counted(Buffer.from('{"R\\u0065sult":[1],"Result":[2]}'), 'Result'), undefined, 'spelt with an escape');
    assert.equal(counted(Buffer.from('{"Meta":{"a":1,"a":2},"Result":[1]}'), 'Result'), undefined, 'two levels down');
    assert.deepEqual(counted(Buffer.from('{"Result":[{"a":1,"a":2}]}'), 'Result')?.streamed?.rowCount, 1, 'in a row: each row is read by JSON.parse either way');
    assert.equal(counted(Buffer.from('{"Result":[1'), 'Result'), undefined, 'not JSON: the splitter says why');
    assert.deepEqual(counted(Buffer.from('{"x":"Result","Result":[1]}'), 'Result')?.streamed?.rowCount, 1, 'the name as a value: no key twice');
    assert.deepEqual(counted(Buffer.from('{"Result":["a\\"b"]}'), 'Result')?.streamed?.rowCount, 1);
    assert.deepEqual(counted(Buffer.from('{"Résumé":[1]}'), 'Résumé')?.streamed?.rowCount, 1);
    assert.deepEqual(counted(Buffer.from('{"A":1,"Result":[1,2,3],"B":[4]}'), 'Result')?.streamed?.rowCount, 3);
  });

  void it('a body past the held bound, declared, undeclared or compressed, is split as it arrives, whatever is wanted of it', async () => {
    // Larger than the bodies held whole (HELD.bytes): about 32 bytes a row.
    const big = Buffer.from(JSON.stringify({ Result: Array.from({ length: Math.ceil(HELD.bytes / 24) }, (_, i) => ({ id: i, name: `row ${i}` })) }));
    assert.ok(big.length > HELD.bytes);
    const cases: Record<string, string>[] = [{ 'content-length': String(big.length) }, {}, { 'content-length': '10', 'content-encoding': 'gzip' }];
    for (const headers of cases) {
      const request = { method: 'GET', url: 'http://127.0.0.1:9/page', headers: {} };
      const page = await fetchStreamed(port(big, headers, 5), request, {}, { field: 'Result' }, undefined, false);
      assert.ok(page.streamed && page.streamed.ndjson.length > 0, `${JSON.stringify(headers)}: split into NDJSON`);
    }
  });
});
