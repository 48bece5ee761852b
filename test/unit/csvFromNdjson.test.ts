// csvFromNdjson.ts writes flat rows' CSV lines from their NDJSON bytes: the bytes must be exactly those
// of the exact path (JSON.parse of the line, csvRow), row by row, on a corpus of what it writes itself
// and of what it must hand over (escapes, nested values, duplicate keys, keys not in the header, numbers
// String() writes otherwise, bytes that are not UTF-8), and through the CSV sink (pieces cut anywhere,
// the redacting sink in front). Oracle: the sink's own exact path (writePage of parseKeepingNumbers's
// rows). And both write each number as its text in the line (12345678901234567890, 1E400, -0, 1.50).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CsvFromNdjson } from '../../src/core/export/csvFromNdjson';
import { csvColumns, csvRow, EXTRA_COLUMN, looksLikeFormula, openCsvSink, VALUE_COLUMN, type CsvFormulas } from '../../src/core/export/csvSink';
import { redactingSink } from '../../src/core/export/redactingSink';
import { keepsNumberText, parseKeepingNumbers } from '../../src/core/json/numberText';
import { Redactor } from '../../src/core/secrets';
import { mulberry32 } from '../../src/sandbox/shared/prng';

/** Rows the fast path writes itself (flat, in the header's keys). */
const FLAT = [
  '{"id":1,"name":"Ann","city":"Springfield","amount":1.25,"active":true,"code":"C-1"}',
  '{"id":2,"name":"Bo, the second","city":"","amount":0,"active":false,"code":null}',
  '{"id":3,"name":"héllo ✓ 😀 日本","city":"Zürich","amount":-0.5,"active":null,"code":"x"}',
  '{"id":4,"name":"=SUM(A1:A2)","city":"+1","amount":100,"active":true,"code":"-12.5"}',
  '{"id":5,"name":"-abc","city":"@here","amount":123456789012345,"active":true,"code":"=a,b"}',
  '{ "id" : 6 , "name" : "spaced" , "amount" : 0.000001 }',
  '{}',
  '{"id":8,"amount":3.14159265358979}',
  '{"id":9,"name":"","city":"a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p","amount":0.05}\r',
  '{"id":10,"constructor":"c","__proto__":"p","toString":"t"}',
  '{"id":11,"name":"a long value that runs past sixty-four bytes of plain text, with a comma too, and more"}',
  '{"id":12,"":"empty key","key,with,commas":"v","ключ":"unicode key"}',
];

/** Rows it must hand to the exact path, or whose numbers it must rewrite as String() does. */
const HARD = [
  '{"code":"keys in another order than the header\'s","id":7}',
  '{"amount":3.14159265358979,"id":8}',
  '{"id":20,"name":"a \\"quoted\\" word","city":"line\\nbreak","code":"\\u0041\\u00e9"}',
  '{"id":21,"name":"tab\\there","amount":1E400,"code":"\\ud83d\\ude00"}',
  '{"id":22,"amount":12345678901234567890}',
  '{"id":23,"amount":-0}',
  '{"id":24,"amount":0.0000001}',
  '{"id":25,"amount":1.50}',
  '{"id":26,"amount":1e5}',
  '{"id":27,"amount":1234567890123456}',
  '{"id":271,"amount":9999999999999999,"code":-9007199254740993}',
  '{"id":28,"amount":2.718281828459045}',
  '{"id":29,"amount":-1E-400}',
  '{"id":30,"amount":0.1e1}',
  '{"id":31,"name":{"first":"Ann","tags":[1,2,{"x":null}]}}',
  '{"id":32,"name":[1,"two",null,true]}',
  '{"id":33,"id":34,"name":"duplicate: the last one counts"}',
  '{"id":35,"name":"x","name":"y"}',
  '{"id":36,"unknown":"goes to _extra","__proto__":{"x":1}}',
  '{"id":37,"_extra":"a key named like the column"}',
  '{"id":38,"constructor":{"nested":true},"other":[]}',
  '{"id":39,"Password":"hunter2","access_token":"abc","apiKey":"k"}',
  '5', '"a row that is a string"', '[1,2,3]', 'null', 'true',
  '{"id":40,"name":"\\/slash","city":"\\\\back"}',
  '{"id":41,"name":"=formula\\u002c with an escaped comma"}',
];

const HEADER_ROWS = [
  '{"id":0,"name":"h","city":"c","amount":1,"active":true,"code":"c","constructor":"k","__proto__":"p","toString":"t"}',
  '{"":"e","key,with,commas":"v","ключ":"u","Password":"p","access_token":"a","apiKey":"k"}',
];

/** The exact path's lines for these NDJSON lines (blank lines are none). */
function exactLines(lines: readonly string[], columns: readonly string[], formulas: CsvFormulas): string {
  const known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
  return lines.filter((l) => l.trim() !== '').map((l) => `${csvRow(parseKeepingNumbers(l), columns, known, formulas)}\r\n`).join('');
}

function writer(columns: readonly string[], formulas: CsvFormulas, handedOver: string[]): CsvFromNdjson {
  const known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
  const apostrophe = formulas === 'neutralise' ? looksLikeFormula : undefined;
  return new CsvFromNdjson({
    columns, extraColumn: EXTRA_COLUMN, valueColumn: columns.length === 1 && columns[0] === VALUE_COLUMN, apostrophe,
    exact: (line) => {
      handedOver.push(line);
      return csvRow(parseKeepingNumbers(line), columns, known, formulas);
    },
  });
}

const VALUE_TEXTS = ['0', '-1', '42', '1.5', '-0.25', '1E400', '1e-7', '-0', '0.10', '99999999999999999999', '123456789012345', '0.000123', 'true', 'false', 'null',
  '"plain"', '"with, comma"', '"=1+2"', '"-7"', '"+x"', '"@"', '"ü,ß"', '"\\u0041"', '"a\\nb"', '""', '{"n":1}', '[1,{"a":"b"}]', '"😀"'];
const KEYS = ['id', 'name', 'city', 'amount', '__proto__', 'constructor', 'x,y', 'ä', 'late'];

/** A random row line: keys of KEYS in any order (sometimes one twice), values of VALUE_TEXTS, optional spaces. */
function randomRow(next: () => number): string {
  if (next() < 0.05) return VALUE_TEXTS[Math.floor(next() * VALUE_TEXTS.length)]!;
  const keys = KEYS.filter(() => next() < 0.6).sort(() => next() - 0.5);
  if (next() < 0.05 && keys.length > 0) keys.push(keys[0]!);
  const space = next() < 0.1 ? ' ' : '';
  return `{${space}${keys.map((k) => `"${k}"${space}:${space}${VALUE_TEXTS[Math.floor(next() * VALUE_TEXTS.length)]!}`).join(`,${space}`)}${space}}`;
}

void describe('CSV lines from NDJSON bytes (the fast path) against the exact path', () => {
  for (const formulas of ['neutralise', 'raw'] as const) {
    void it(`writes every row of a varied corpus as the exact path does (${formulas})`, () => {
      const columns = csvColumns(HEADER_ROWS.map((l) => JSON.parse(l) as unknown));
      const lines = [...FLAT, ...HARD, '', '   '];
      const handedOver: string[] = [];
      const got = Buffer.concat(writer(columns, formulas, handedOver).encode([Buffer.from(`${lines.join('\n')}\n`)])).toString('utf8');
      assert.equal(got, exactLines(lines, columns, formulas));
      // The flat rows are its own (the exact path never saw them); the hard ones that need a parse were handed over.
      for (const flat of FLAT) assert.ok(!handedOver.includes(flat), `a flat row is written from its bytes: ${flat}`);
      for (const hard of [HARD[0]!, '{"id":33,"id":34,"name":"duplicate: the last one counts"}', '{"id":31,"name":{"first":"Ann","tags":[1,2,{"x":null}]}}', '5', HARD[2]!]) {
        assert.ok(handedOver.includes(hard), `handed to the exact path: ${hard}`);
      }
    });
  }

  void it('writes each number as the service wrote it, on the fast path and the exact path alike', () => {
    const numbers = ['12345678901234567890', '1E400', '-0', '1.50', '1e5', '0.1', '-1E-400', '0.0000001', '9007199254740993'];
    const columns = ['id', 'n', 'nested', EXTRA_COLUMN];
    const lines = numbers.flatMap((n, i) => [
      `{"id":${i},"n":${n}}`, // flat: the fast path
      `{"n":${n},"id":${i}}`, // keys out of order
      `{"id":${i},"n":${n},"nested":{"x":[${n},"\\u0041"]}}`, // nested
      `{"id":${i},"n":${n},"nested":"a \\"q\\"","late":${n}}`, // an escape, and a key past the header (_extra)
    ]);
    const handedOver: string[] = [];
    const got = Buffer.concat(writer(columns, 'neutralise', handedOver).encode([Buffer.from(`${lines.join('\n')}\n`)])).toString('utf8');
    assert.equal(got, exactLines(lines, columns, 'neutralise'));
    assert.equal(handedOver.length, numbers.length * 3, 'every row but the flat one went the exact path');
    const cells = (n: string, i: number): string[] => [`${i},${n},,`, `${i},${n},,`, `${i},${n},"{""x"":[${n},""A""]}",`, `${i},${n},"a ""q""","{""late"":${n}}"`];
    assert.equal(got, numbers.flatMap(cells).map((l) => `${l}\r\n`).join(''));
    const values = ['12345678901234567890', '1E400', '-0', '[1.50,{"a":1e5}]'];
    const value = Buffer.concat(writer([VALUE_COLUMN], 'neutralise', []).encode([Buffer.from(`${values.join('\n')}\n`)])).toString('utf8');
    assert.equal(value, '12345678901234567890\r\n1E400\r\n-0\r\n"[1.50,{""a"":1e5}]"\r\n');
  });

  void it('writes the single value column (no header row was an object) as the exact path does', () => {
    const lines = ['1', '1.5', '-0', '1E400', '12345678901234567890', '0.0000001', '"s"', '"a,b"', '"=x"', '"-3"', 'null', 'true', '{"a":1}', '[1]', '"\\u0041"', ' 7 '];
    const got = Buffer.concat(writer([VALUE_COLUMN], 'neutralise', []).encode([Buffer.from(`${lines.join('\n')}\n`)])).toString('utf8');
    assert.equal(got, exactLines(lines, [VALUE_COLUMN], 'neutralise'));
  });

  void it('hands a batch that is not valid UTF-8 to the exact path (its replacement characters)', () => {
    const columns = ['id', 'name', EXTRA_COLUMN];
    const bytes = Buffer.concat([Buffer.from('{"id":1,"name":"ok"}\n{"id":2,"name":"bad '), Buffer.from([0xff, 0xc3]), Buffer.from('"}\n')]);
    const handedOver: string[] = [];
    const got = Buffer.concat(writer(columns, 'neutralise', handedOver).encode([bytes])).toString('utf8');
    assert.equal(got, exactLines(bytes.toString('utf8').split('\n'), columns, 'neutralise'));
    assert.equal(handedOver.length, 2);
  });

  void it('agrees with the exact path on 5 000 random rows, the pieces cut anywhere', () => {
    const next = mulberry32(37);
    for (let round = 0; round < 10; round++) {
      const header = Array.from({ length: 20 }, () => randomRow(next));
      const columns = csvColumns(header.map((l) => JSON.parse(l) as unknown));
      const lines = Array.from({ length: 500 }, () => randomRow(next));
      const bytes = Buffer.from(`${lines.join('\n')}\n`);
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length;) {
        const end = Math.min(bytes.length, at + 1 + Math.floor(next() * 300));
        pieces.push(bytes.subarray(at, end));
        at = end;
      }
      for (const formulas of ['neutralise', 'raw'] as const) {
        const got = Buffer.concat(writer(columns, formulas, []).encode(pieces)).toString('utf8');
        assert.equal(got, exactLines(lines, columns, formulas), `round ${round}`);
      }
    }
  });

  void it('through the sink and the redacting sink: the same file as rows written whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-csv-fast-'));
    try {
      const redactor = new Redactor(['sk_live_123456']);
      const body = [...FLAT, ...HARD.filter((l) => !/^\d|^"|^\[|^null|^true/.test(l)), '{"id":50,"note":"echo sk_live_123456"}', '{"id":51,"Password":"p","amount":1E400}',
        '{"id":52,"note":"sk_live_123456 again","amount":12345678901234567890,"name":{"big":-0,"n":[1.50,1e5]}}'];
      // Exact: rows parsed and redacted, written whole (the header from the header rows' page).
      const exactPath = join(dir, 'exact.csv');
      const exact = await openCsvSink(exactPath);
      await exact.writePage(HEADER_ROWS.map((l) => redactor.row(JSON.parse(l))));
      await exact.writePage(body.map((l) => {
        const row = parseKeepingNumbers(l);
        const shown = redactor.row(row);
        keepsNumberText(row, shown);
        return shown;
      }));
      await exact.close();
      // Streamed: NDJSON lines through the redacting sink, the body's lines in pieces cut mid-row.
      const fastPath = join(dir, 'fast.csv');
      const fast = redactingSink(await openCsvSink(fastPath), () => redactor);
      const keys = new Set(['Password', 'access_token', 'apiKey', 'key,with,commas', 'ключ']);
      await fast.writeNdjsonPage!([Buffer.from(`${HEADER_ROWS.join('\n')}\n`)], HEADER_ROWS.length, keys);
      await fast.endPage!();
      const text = Buffer.from(`${body.join('\n')}\n`);
      const plain = text.subarray(0, text.indexOf('{"id":20'));
      await fast.writeNdjsonPage!([plain.subarray(0, 37), plain.subarray(37)], FLAT.length, new Set());
      await fast.writeNdjsonPage!([text.subarray(plain.length)], body.length - FLAT.length, keys);
      await fast.close();
      const got = readFileSync(fastPath, 'utf8');
      assert.equal(got, readFileSync(exactPath, 'utf8'));
      assert.ok(got.includes('***') && !got.includes('Infinity') && !got.includes('hunter2') && !got.includes('sk_live_123456'), 'secrets redacted, 1E400 as it came');
      // A row the Redactor changed keeps the numbers it left, in a cell and nested.
      assert.match(got, /^52,"\{""big"":-0,""n"":\[1\.50,1e5\]\}",[^\r]*,12345678901234567890,/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('a batch that fixes the header mid-way writes the same bytes; a line that is not JSON before it leaves nothing held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-csv-fast-'));
    try {
      const path = join(dir, 'rows.csv');
      const sink = await openCsvSink(path);
      const page = sink.openPage!();
      await assert.rejects(async () => page.writeNdjson([Buffer.from('{"early":1}\n{"early":2}\n{"broken":\n')], 3, new Set()));
      // 1 500 numbers then rows: the header is fixed by the first 1 000 lines (one value column), the rest written from their bytes.
      const lines = [...Array.from({ length: 1500 }, (_, i) => String(i * 3 + 0.5)), '"s,t"', '1E400', '{"a":1}'];
      await page.writeNdjson([Buffer.from(`${lines.join('\n')}\n`)], lines.length, new Set());
      await page.keep();
      await sink.close();
      assert.equal(readFileSync(path, 'utf8'), `value\r\n${exactLines(lines, [VALUE_COLUMN], 'neutralise')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
