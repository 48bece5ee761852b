// The generated loops' rowsOf (TypeScript) and rows_of (Python) are the product's rows rule printed
// (src/core/codegen/paging/rowsOf.ts): for every looped style, with and without items=, each returns
// for each body exactly what rowsRule(style, options).find(body) returns (the rows, or none). The bodies
// aim at each step: names and null, items= paths (literal key, dotted, '$'), fixed places, top-level
// arrays, the largest array of objects one or two levels down, ties, Errors, mostly-primitive arrays,
// and integer-like keys (whose order JavaScript puts first).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { PagingStyleId } from '../../src/core/catalog/model';
import { pythonRowsOf, typescriptRowsOf } from '../../src/core/codegen/paging/rowsOf';
import { rowsRule } from '../../src/core/paging/rows';
import { createStrategy } from '../../src/core/paging/strategies';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const LOOPED: readonly PagingStyleId[] = ['page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction'];
const OPTIONS: readonly Record<string, string>[] = [{}, { items: 'data.rows' }, { items: '@odata.rows' }, { items: '$' }];

const o = (n: number, tag: string): unknown[] => Array.from({ length: n }, (_, i) => ({ tag, i }));
const BODIES: readonly unknown[] = [
  { Errors: [], Small: o(1, 'small'), Deep: { Rows: o(3, 'deep') } },
  { Errors: o(5, 'errors'), errors: o(5, 'e'), Error: o(5, 'E'), Some: o(2, 'some') },
  { A: o(2, 'a'), B: o(2, 'b') },
  { Wrap: { X: o(2, 'x') }, Y: o(2, 'y') },
  { Names: ['a', 'b', 'c'], Mixed: [1, { m: 1 }], Objs: [{ k: 1 }] },
  { Mostly: [1, 2, { a: 1 }, { b: 2 }], Less: [{ z: 1 }] },
  { Empty: [], Nothing: 1 },
  { Nothing: 1 },
  [{ top: 1 }, { top: 2 }],
  [1, 2, 3],
  null,
  'text',
  { b: o(1, 'b'), 2: o(1, 'two'), 1: o(1, 'one') },
  { Orders: o(2, 'orders'), More: o(5, 'more') },
  { Orders: null, More: o(1, 'more') },
  { _Leads: o(1, 'leads') },
  { Result: [], Other: o(3, 'other') },
  { Result: o(2, 'result'), Other: o(3, 'other') },
  { Assets: null, Other: o(2, 'other') },
  { Assets: 'none', Other: o(2, 'other') },
  { FactTransactions: o(4, 'facts'), Big: o(9, 'big') },
  { data: { rows: o(2, 'nested') }, Big: o(9, 'big') },
  { data: { rows: null } },
  { data: null },
  { 'data.rows': o(1, 'literal'), data: { rows: o(2, 'dotted') } },
  { '@odata.rows': o(2, 'odata') },
  { Long: [...o(60, 'long')], Prims: [...Array.from({ length: 50 }, () => 1), ...o(100, 'late')] },
];

/** The texts the loops parse: the bodies above, and one whose integer-like keys JSON.parse puts first. */
const TEXTS: readonly string[] = [
  ...BODIES.map((b) => JSON.stringify(b)),
  '{"b": [{"t": "b"}], "2": [{"t": "two"}], "1": [{"t": "one"}], "01": [{"t": "zero-one"}]}',
];

interface Case { readonly style: PagingStyleId; readonly options: Record<string, string> }
const CASES: readonly Case[] = LOOPED.flatMap((style) => OPTIONS.map((options) => ({ style, options })));
const oracle = (c: Case): unknown[] => TEXTS.map((text) => {
  const found = rowsRule(c.style, c.options).find(JSON.parse(text));
  return found.ok ? found.rows : null;
});

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'apiwb-rowsof-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

void describe('a generated loop\'s rowsOf is the rows rule', () => {
  void it('TypeScript: every style and items= gives rowsRule\'s rows for every body', async () => {
    const makers = CASES.map((c) => [
      '(() => {',
      ...typescriptRowsOf(createStrategy(c.style, c.options).loop!).map((l) => `  ${l}`),
      '  return rowsOf;',
      '})(),',
    ].join('\n'));
    const file = join(dir, 'rowsOf.mts');
    writeFileSync(file, [
      'type Json = Record<string, unknown>;',
      'const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);',
      `const makers = [\n${makers.join('\n')}\n];`,
      `const bodies = (${JSON.stringify(TEXTS)} as string[]).map((t) => JSON.parse(t) as unknown);`,
      'process.stdout.write(JSON.stringify(makers.map((rowsOf) => bodies.map((b) => rowsOf(b) ?? null))));',
    ].join('\n'));
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, maxBuffer: 16 << 20 });
    const got = JSON.parse(stdout) as unknown[][];
    CASES.forEach((c, i) => assert.deepEqual(got[i], oracle(c), `${c.style} ${JSON.stringify(c.options)}`));
  });

  void it('Python: every style and items= gives rowsRule\'s rows for every body', async () => {
    const makers = CASES.map((c, i) => [
      `def make_${i}():`,
      ...pythonRowsOf(createStrategy(c.style, c.options).loop!).map((l) => (l ? `    ${l}` : l)),
      '    return rows_of',
    ].join('\n'));
    const file = join(dir, 'rows_of.py');
    writeFileSync(file, [
      'import json',
      '',
      makers.join('\n\n'),
      '',
      `bodies = [json.loads(t) for t in json.loads(${JSON.stringify(JSON.stringify(TEXTS))})]`,
      `print(json.dumps([[globals()[f"make_{i}"]()(b) for b in bodies] for i in range(${CASES.length})]))`,
    ].join('\n'));
    const { stdout } = await exec('python3', [file], { maxBuffer: 16 << 20 });
    const got = JSON.parse(stdout) as unknown[][];
    CASES.forEach((c, i) => assert.deepEqual(got[i], oracle(c), `${c.style} ${JSON.stringify(c.options)}`));
  });

  void it('the bodies reach every step: each style without items= finds rows in some, none in others', () => {
    for (const style of LOOPED) {
      const found = oracle({ style, options: {} });
      assert.ok(found.some((r) => r === null) && found.some((r) => Array.isArray(r) && r.length > 0), style);
    }
  });
});
