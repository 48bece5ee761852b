// The streaming row splitter: rows to NDJSON at every chunk boundary, fields kept, malformed rejected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recycleBlocks } from '../../src/core/export/byteBlocks';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { TooDeepError } from '../../src/core/export/splitResult';
import { isSecretName } from '../../src/core/secrets';

function split(body: string, field: string | undefined, chunkSize: number) {
  const out = new ByteBlocks(64);
  const splitter = new JsonRowSplitter(field, out);
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += chunkSize) splitter.push(bytes.subarray(i, i + chunkSize));
  const result = splitter.end();
  return { ...result, ndjson: Buffer.concat(out.buffers()).toString('utf8') };
}

function expected(rows: unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

const rows = [
  { id: 1, name: 'Ann "the \\\\ first"', tags: ['a', 'b,]}'], nested: { deep: [1, { x: null }] } },
  { id: 2, name: 'Zoë 東京', ok: true, n: -1.5e3 },
  { id: 3, empty: {}, list: [] },
];
const body = JSON.stringify({ TableName: 'SEL_1', Result: rows, Remaining: 0, Errors: ['x'] });

void describe('JsonRowSplitter', () => {
  void it('splits the rows field into NDJSON and keeps the other fields, at every chunk size', () => {
    for (let size = 1; size <= body.length; size++) {
      const result = split(body, 'Result', size);
      assert.equal(result.ndjson, expected(rows), `chunk size ${size}`);
      assert.deepEqual(result.fields, { TableName: 'SEL_1', Remaining: 0, Errors: ['x'] });
      assert.equal(result.rowCount, 3);
    }
  });

  void it('rows with "},{" inside strings or nested values are split at the real boundaries only', () => {
    const tricky = Array.from({ length: 300 }, (_, i) => (i % 7 === 3
      ? { id: i, text: 'a},{"b":1},{c', nested: [{ x: 1 }, { y: [{ z: 2 }, {}] }] }
      : { id: i, name: `row ${i}`, ok: i % 2 === 0 }));
    const text = JSON.stringify({ Result: tricky, After: [{ k: 1 }, { k: 2 }], TableName: 'T' });
    for (const size of [3, 64, 1000, 4096, 65_536]) {
      const result = split(text, 'Result', size);
      assert.equal(result.ndjson, expected(tricky), `chunk size ${size}`);
      assert.deepEqual(result.fields, { After: [{ k: 1 }, { k: 2 }], TableName: 'T' });
      assert.equal(result.rowCount, 300);
    }
  });

  void it('a malformed row in the middle of a long compact page is caught', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: i, v: 'x'.repeat(i % 50) }));
    const text = JSON.stringify({ Result: many }).replace('{"id":1000,', '{"id":1000,,');
    for (const size of [100, 65_536]) assert.throws(() => split(text, 'Result', size), MalformedJsonError);
  });

  void it('splits a top-level array, scalars and strings included', () => {
    const array = [1, 'two', { three: 3 }, null, [4], true, -0.5];
    for (const size of [1, 2, 3, 7, 100]) assert.equal(split(JSON.stringify(array), undefined, size).ndjson, expected(array));
  });

  void it('re-serialises a pretty-printed row so each row stays on one line', () => {
    const pretty = JSON.stringify({ Result: rows }, null, 2);
    for (const size of [1, 5, 1000]) assert.equal(split(pretty, 'Result', size).ndjson, expected(rows));
  });

  void it('a pretty-printed row keeps its bytes as they came but the blanks between tokens, as a one-line row does', () => {
    const row = '{"n":1E400,"big":12345678901234567890,"s":"a  b\\u00e9 \\" {\\n","k":"x","k":"y","f":1.50}';
    const pretty = `{ "Result" : [\r\n  {\n\t"n" : 1E400,\n  "big": 12345678901234567890 ,\n  "s": "a  b\\u00e9 \\" {\\n",\n  "k":"x", "k":"y",\n  "f": 1.50\n  }\n ] }`;
    for (const size of [1, 2, 5, 1000]) {
      assert.equal(split(pretty, 'Result', size).ndjson, `${row}\n`);
      assert.equal(split(`{"Result":[${row}]}`, 'Result', size).ndjson, `${row}\n`);
    }
  });

  void it('an empty rows array, a null one, or none at all', () => {
    assert.equal(split('{"Result":[],"TableName":"T"}', 'Result', 3).rowCount, 0);
    assert.deepEqual(split('{"Result":null}', 'Result', 4).fields, { Result: null });
    const none = split('{"Assets":[{"a":1}]}', 'Result', 4);
    assert.equal(none.rowsFound, false);
    assert.deepEqual(none.fields, { Assets: [{ a: 1 }] });
  });

  void it('a body of another shape than expected is parsed whole, not rejected', () => {
    assert.deepEqual(split('[1,2]', 'Result', 1).value, [1, 2]);
    assert.deepEqual(split('{"items":[1]}', undefined, 2).value, { items: [1] });
    assert.throws(() => split('{"items":[1]', undefined, 2), MalformedJsonError);
  });

  void it('rejects malformed bodies like JSON.parse would', () => {
    const broken = [
      body.slice(0, body.length - 10), // cut short
      body.replace('"id":2', '"id":2,,'),
      body.replace('true', 'tru'),
      body.replace('"TableName":', '"TableName"'),
      `${body}x`,
      '{"Result":[1,]}',
      '{"Result":[{"a":1}{"b":2}]}',
    ];
    for (const text of broken) {
      for (const size of [1, 16, 10_000]) {
        assert.throws(() => split(text, 'Result', size), MalformedJsonError, `${text} at ${size}`);
      }
    }
  });
});

/** The splitter's verdict on a body cut into the given chunks: the rows (parsed back) and fields, or 'malformed'. */
function verdict(bytes: Buffer, field: string | undefined, cuts: readonly number[]): unknown {
  const out = new ByteBlocks(16);
  const splitter = new JsonRowSplitter(field, out);
  try {
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      splitter.push(bytes.subarray(from, cut));
      from = cut;
    }
    const result = splitter.end();
    if ('value' in result) return { value: result.value };
    const lines = Buffer.concat(out.buffers()).toString('utf8');
    assert.ok(lines === '' || lines.endsWith('\n'), 'NDJSON ends with a line break');
    const parsed = lines.split('\n').slice(0, -1).map((line) => JSON.parse(line) as unknown);
    assert.equal(parsed.length, result.rowCount);
    return result.rowsFound ? { fields: result.fields, rows: parsed } : { fields: result.fields };
  } catch (error) {
    if (error instanceof MalformedJsonError) return 'malformed';
    throw error;
  }
}

/** What JSON.parse makes of the same body, in the splitter's terms. */
function reference(bytes: Buffer, field: string | undefined): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'malformed';
  }
  if (field === undefined) return Array.isArray(value) ? { fields: {}, rows: value } : { value };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value };
  const fields = { ...(value as Record<string, unknown>) };
  const rows = fields[field];
  if (!Array.isArray(rows)) return { fields };
  delete fields[field];
  return { fields, rows };
}

// Bodies JSON.parse accepts or refuses for every reason the grammar has; each is also cut at every byte.
const corpus = [
  '{"Result":[]}', '{"Result":[{}]}', ' \t\r\n{ "Result" : [ 1 , "a" , null ] } \n', '{"T":"x","Result":[{"a":[1,{"b":"}],{"}}]}],"R":0}',
  '{"Result":[-0,0.5,1e3,1E+3,-1.25e-7,123456789012345678901234567890]}', '{"Result":["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00"]}',
  '{"Result":["Zoë 東京 😀"],"k\\u0065y":"v"}', '{"Result":[true,false,null,[],{},[[]],{"":{}}]}', 
  '{"Result":[1,2],"Other":[3]}', '{"a":{"Result":[1]}}', '{"Result":{"a":[1]}}',
  '{"Result":[1,]}', '{"Result":[,1]}', '{"Result":[1 2]}', '{"Result":[01]}', '{"Result":[-]}', '{"Result":[1.]}', '{"Result":[.5]}',
  '{"Result":[1e]}', '{"Result":[1e+]}', '{"Result":[+1]}', '{"Result":[0x1]}', '{"Result":[tru]}', '{"Result":[nul]}', '{"Result":[True]}',
  '{"Result":["a\nb"]}', '{"Result":["\\x"]}', '{"Result":["\\u12"]}', '{"Result":["\\u12G4"]}', '{"Result":["abc]}', '{"Result":[{"a"}]}',
  '{"Result":[{"a":}]}', '{"Result":[{a:1}]}', '{"Result":[{"a":1,}]}', '{"Result":[{"a":1]}]}', '{"Result":[[1}]}', '{"Result":[1]]}',
  '{"Result":[1]', '{"Result":[1]}}', '{"Result":[1]} x', '{"Result" [1]}', '{"Result":[1]}{}', "{'Result':[1]}", '{"Result":[NaN]}',
  '{"Result":[Infinity]}', '{"Result":[1],}', '{,"Result":[1]}', '', '   ', '[1,2]', 'null', '"Result"', '\ufeff{"Result":[]}',
  '{"Result":[1]}\u00a0', '{"Result":["\u007f"]}', '{"Result":["\t"]}',
];

void describe('JsonRowSplitter agrees with JSON.parse', () => {
  void it('on every body of the corpus, cut at every byte, as a field and as a top-level array', () => {
    for (const text of corpus) {
      for (const [field, body] of [['Result', text], [undefined, text.replace(/^\s*\{"Result":/, '').replace(/\}\s*$/, '')]] as const) {
        const bytes = Buffer.from(body, 'utf8');
        const expected = reference(bytes, field);
        assert.deepEqual(verdict(bytes, field, []), expected, `${JSON.stringify(body)} whole`);
        for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(verdict(bytes, field, [cut]), expected, `${JSON.stringify(body)} cut at ${cut}`);
        assert.deepEqual(verdict(bytes, field, Array.from({ length: Math.max(0, bytes.length - 1) }, (_, k) => k + 1)), expected, `${JSON.stringify(body)} byte by byte`);
      }
    }
  });

  void it('on every one-byte mutation of a sample page (deleted, replaced, inserted), in one piece and cut in three', () => {
    const sample = Buffer.from(JSON.stringify({ TableName: 'T_1', Result: [{ id: 1, s: 'a\\"b', n: -1.5e3, t: true, z: null, l: [0, {}] }, 'x', 2], R: 0 }), 'utf8');
    const bytes = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x30, 0x31, 0x2d, 0x2e, 0x65, 0x20, 0x0a, 0x75, 0x74, 0x00, 0x80, 0xc3, 0xff];
    const variants: Buffer[] = [];
    for (let at = 0; at <= sample.length; at++) {
      if (at < sample.length) variants.push(Buffer.concat([sample.subarray(0, at), sample.subarray(at + 1)]));
      for (const b of bytes) {
        if (at < sample.length) variants.push(Buffer.concat([sample.subarray(0, at), Buffer.of(b), sample.subarray(at + 1)]));
        variants.push(Buffer.concat([sample.subarray(0, at), Buffer.of(b), sample.subarray(at)]));
      }
    }
    let refused = 0;
    for (const variant of variants) {
      const expected = reference(variant, 'Result');
      if (expected === 'malformed') refused++;
      const third = Math.floor(variant.length / 3);
      assert.deepEqual(verdict(variant, 'Result', []), expected, variant.toString('latin1'));
      assert.deepEqual(verdict(variant, 'Result', [third, 2 * third + 1]), expected, variant.toString('latin1'));
    }
    assert.ok(refused > variants.length / 3 && refused < variants.length, `${refused} of ${variants.length} refused: the corpus holds both`);
  });

  void it('refuses a rows field that comes again after its rows (JSON.parse would keep the last; the first is out)', () => {
    for (const size of [1, 5, 100]) assert.throws(() => split('{"Result":[{"a":1}],"Result":2}', 'Result', size), /appears twice/);
    // Before the rows array, the later one wins, as in JSON.parse.
    assert.equal(split('{"Result":1,"Result":[{"a":1}]}', 'Result', 3).ndjson, '{"a":1}\n');
  });

  void it('nests deeper than its first stack up to the product\'s limit (a deep row is still one row), and refuses past it', () => {
    // The body's object (1) and its rows array (2) hold a row of 510 levels: 512, the limit (MAX_JSON_DEPTH).
    const deep = `${'['.repeat(510)}${']'.repeat(510)}`;
    const body = Buffer.from(`{"Result":[${deep},1]}`);
    for (const cuts of [[], [300, 700]]) assert.equal(split(body.toString(), 'Result', cuts.length ? 300 : body.length).ndjson, `${deep}\n1\n`);
    assert.throws(() => split(`{"Result":[${deep.slice(1)},1]}`, 'Result', 400), MalformedJsonError);
    // One level more: refused in the words a body read whole is refused in, whatever the chunks.
    for (const size of [1, 300, 5000]) {
      assert.throws(() => split(`{"Result":[[${deep}],1]}`, 'Result', size), (error: unknown) => error instanceof TooDeepError && /deeper than 512 levels/.test(error.message));
    }
  });
});

void describe('JsonRowSplitter.secretKeyCandidates', () => {
  /** Every key of a value, at any depth, decoded. */
  const keysOf = (value: unknown, into = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const v of value) keysOf(v, into);
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        into.add(k);
        keysOf(v, into);
      }
    }
    return into;
  };

  void it('holds every key of the rows that isSecretName accepts, at any depth and chunk cut, and not the plain ones', () => {
    // 'to\u212Aen' holds the Kelvin sign, which lower-cases to "k": no ASCII k, still a secret's name.
    const secretKeys = ['password', 'PassWord', 'db_password', 'X-Auth-Token', 'aws_secret_access_key', 'apiKey', 'API_KEY', 'sessionid', 'pwd', 'client_secret', 'credentials', 'to\u212Aen', 'access_to\u212Aen'];
    const plainKeys = ['id', 'FirstName', 'LastName', 'Email', 'City', 'Country', 'OptInEmail', 'LastStayDate', 'note'];
    const rows = [
      { id: 1, FirstName: 'a', password: 'x', nested: { PassWord: 'y', list: [{ db_password: 'z' }, { 'X-Auth-Token': 't' }] } },
      { id: 2, LastName: 'b', aws_secret_access_key: 'k', apiKey: 'k2', deeper: [[{ API_KEY: 'k3', sessionid: 's' }]] },
      { id: 3, Email: 'c', City: 'd', Country: 'e', OptInEmail: true, LastStayDate: '2024', pwd: 'p', client_secret: 'cs', credentials: 'cr', note: 'token password key' },
      { id: 5, 'to\u212Aen': 'raw UTF-8 in the body', nested: { 'access_to\u212Aen': 'a', Straße: 'plain, non-ASCII' } },
    ];
    // The same names written with escapes: decoded before they are asked.
    const escaped = '{"id":4,"\\u0070assword":"q","db\\/password":"r","x\\tsecret":"s","note":"plain"}';
    const text = `{"TableName":"T","password":"top-level fields are not rows","Result":[${rows.map((r) => JSON.stringify(r)).join(',')},${escaped}]}`;
    const bytes = Buffer.from(text);
    const all = keysOf((JSON.parse(text) as { Result: unknown }).Result);
    for (let cut = 1; cut < bytes.length; cut += 3) {
      const splitter = new JsonRowSplitter('Result', new ByteBlocks(64));
      splitter.push(bytes.subarray(0, cut));
      splitter.push(bytes.subarray(cut));
      splitter.end();
      const candidates = splitter.secretKeyCandidates;
      for (const key of all) if (isSecretName(key)) assert.ok(candidates.has(key), `${key} at cut ${cut}`);
      for (const key of [...secretKeys, 'password', 'db/password', 'x\tsecret']) assert.ok(candidates.has(key), `${key} at cut ${cut}`);
      for (const key of plainKeys) assert.ok(!candidates.has(key), `${key} is not a candidate`);
    }
  });
});

void describe('JsonRowSplitter state', () => {
  void it('is its own: nothing of the warm-up sample or of an earlier splitter shows in a new one', () => {
    const first = new JsonRowSplitter('Result', new ByteBlocks(64));
    first.push(Buffer.from('{"T":"x","Result":[{"password":1,"ab":"c"}],"R":0}'));
    first.end();
    const out = new ByteBlocks(64);
    const splitter = new JsonRowSplitter('Result', out);
    assert.equal(splitter.secretKeyCandidates.size, 0);
    assert.equal(splitter.rowsSoFar, 0);
    splitter.push(Buffer.from('{"Result":[{"id":1}],"Other":2}'));
    assert.deepEqual(splitter.end(), { fields: { Other: 2 }, rowCount: 1, rowsFound: true });
    assert.deepEqual([...splitter.secretKeyCandidates], []);
    assert.equal(Buffer.concat(out.buffers()).toString(), '{"id":1}\n');
  });
});

void describe('top-level fields', () => {
  void it('a field named __proto__ is an own field, as JSON.parse reads it, and sets no other field', () => {
    const text = '{"__proto__":{"Remaining":5},"TableName":"T","Data":[1,2]}';
    const splitter = new JsonRowSplitter('Data', new ByteBlocks(64));
    splitter.push(Buffer.from(text));
    const { fields } = splitter.end();
    const parsed = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(fields).sort(), Object.keys(parsed).filter((k) => k !== 'Data').sort());
    assert.equal((fields)['Remaining'], undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value, { Remaining: 5 });
  });
});

void describe('recycleBlocks', () => {
  void it('reuses the blocks of written pieces for the next bytes, and only its own, whole blocks', () => {
    const blocks = new ByteBlocks(8);
    blocks.append(Buffer.from('abcdefghij'), 0, 10);
    const first = blocks.take();
    assert.equal(Buffer.concat(first).toString(), 'abcdefghij');
    const memory = new Set(first.map((b) => b.buffer));
    recycleBlocks([...first, Buffer.from('not a block of these'), first[0]!]);
    blocks.appendRun(Buffer.from('k,l,mnopqrs'), 0, 11, [1, 3], 2, 0x0a);
    const second = blocks.take();
    assert.equal(Buffer.concat(second).toString(), 'k\nl\nmnopqrs');
    assert.ok(second.every((b) => memory.has(b.buffer)), 'the second batch went into the recycled blocks');
    assert.equal(Buffer.concat(first).toString().length, 10, 'pieces handed out keep their length (their bytes are the caller\'s)');
  });
});

// Strings are read four bytes at a time where four bytes are left in the chunk, one at a time at its end:
// every byte that may stop a string, at every place in a word, at every cut, must be read as JSON.parse reads it.
void describe('JsonRowSplitter reads strings four bytes at a time as JSON.parse reads them', () => {
  const cutsOf = (length: number): number[][] => [[], ...Array.from({ length: length - 1 }, (_, k) => [k + 1])];

  void it('any byte after a clean run of 0 to 9 bytes, in a value and in a key, whole and cut at every byte', () => {
    for (let byte = 0; byte < 256; byte++) {
      for (let run = 0; run < 10; run++) {
        const clean = Buffer.from('abcdefghij'.slice(0, run));
        for (const make of [(s: Buffer) => [Buffer.from('{"Result":[{"k":"'), s, Buffer.from('zz"}]}')], (s: Buffer) => [Buffer.from('{"Result":[{"'), s, Buffer.from('zz":1}]}')]]) {
          const bytes = Buffer.concat(make(Buffer.concat([clean, Buffer.of(byte)])));
          const expected = reference(bytes, 'Result');
          // Every cut from the string's start to its end, each an alignment of the word reads.
          for (const cuts of cutsOf(bytes.length).filter((c) => c.length === 0 || (c[0]! >= 10 && c[0]! <= bytes.length - 5))) {
            assert.deepEqual(verdict(bytes, 'Result', cuts), expected, `byte 0x${byte.toString(16)} after ${run} at ${cuts.join()}`);
          }
        }
      }
    }
  });

  void it('a string ending exactly at a chunk boundary, an escape split across chunks, a control character after a long clean run', () => {
    const long = 'x'.repeat(1000);
    const bodies = [
      `{"Result":[{"a":"${long}"},{"b":"${long}\\n\\u00e9\\"${long}"}]}`,
      `{"Result":[{"${long}":"${long}\\u0041"}]}`,
      `{"Result":[{"a":"${long}\u0001"}]}`,
      `{"Result":[{"${long}\u001f":1}]}`,
      `{"Result":[{"a":"${long}\\q"}]}`,
      `{"Result":[{"a":"${long}\\u00G0"}]}`,
    ];
    for (const text of bodies) {
      const bytes = Buffer.from(text);
      const expected = reference(bytes, 'Result');
      for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(verdict(bytes, 'Result', [cut]), expected, `${text.slice(-20)} cut at ${cut}`);
      for (const size of [3, 4, 5, 7, 64]) {
        const cuts = Array.from({ length: Math.ceil(bytes.length / size) - 1 }, (_, k) => (k + 1) * size);
        assert.deepEqual(verdict(bytes, 'Result', cuts), expected, `${text.slice(-20)} in chunks of ${size}`);
      }
    }
  });

  void it('multi-byte UTF-8 in keys and values, split across chunks at every byte, and invalid UTF-8 read as JSON.parse reads it', () => {
    const text = '{"Result":[{"Zoë":"東京 😀","😀k":"é","a\u212A":"\u0080\u07ff\u0800\uffff"}],"T":"ü"}';
    const bytes = Buffer.from(text);
    const expected = reference(bytes, 'Result');
    for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(verdict(bytes, 'Result', [cut]), expected, `cut at ${cut}`);
    // Bytes that are not UTF-8 (a lone continuation byte, a truncated sequence, 0xff): decoded as U+FFFD, not refused.
    const invalid = Buffer.concat([Buffer.from('{"Result":[{"a":"'), Buffer.of(0x80, 0x41, 0xe6, 0x9d, 0x41, 0xff), Buffer.from('"}]}')]);
    const invalidExpected = reference(invalid, 'Result');
    for (let cut = 1; cut < invalid.length; cut++) assert.deepEqual(verdict(invalid, 'Result', [cut]), invalidExpected, `invalid cut at ${cut}`);
  });

  void it('a secret-named key whose bytes set every bit of the letter set is a candidate (no cache slot is mistaken for it)', () => {
    // A pangram, a space (bit 0) and ;<=>? (bits 27 to 31): the set is -1, every bit.
    for (const key of ['password the quick brown fox jumps over the lazy dog;<=>?', 'the quick brown fox jumps over the lazy dog;<=>? token']) {
      const splitter = new JsonRowSplitter('Result', new ByteBlocks(64));
      splitter.push(Buffer.from(`{"Result":[{"id":1,${JSON.stringify(key)}:"v"}]}`));
      splitter.end();
      assert.ok(isSecretName(key) && splitter.secretKeyCandidates.has(key), key);
    }
  });

  void it('a secret-named key is a candidate at every alignment and cut, with digits, punctuation or non-ASCII around it', () => {
    for (let pad = 0; pad < 8; pad++) {
      const keys = [`${'_'.repeat(pad)}token`, `${'1'.repeat(pad)}Pass`, `é${'-'.repeat(pad)}key`, `${'x'.repeat(pad)}to\u212Aen`, `${'@'.repeat(pad)}pwd`];
      const text = `{"Result":[{${keys.map((k, n) => `"${k}":${n}`).join(',')}}]}`;
      const bytes = Buffer.from(text);
      for (let cut = 0; cut < bytes.length; cut++) {
        const splitter = new JsonRowSplitter('Result', new ByteBlocks(64));
        splitter.push(bytes.subarray(0, cut));
        splitter.push(bytes.subarray(cut));
        splitter.end();
        for (const key of keys) assert.ok(splitter.secretKeyCandidates.has(key), `${key} at cut ${cut}`);
      }
    }
  });
});
