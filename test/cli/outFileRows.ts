// What the --out tests read of a run: bodies of padded rows, the rows JSON.parse and the rows rule find in
// one (the oracle), the rows an --out file holds, and the rows the run's totals line prints.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rowsRule } from '../../src/core/paging/rows';

/** `n` rows from id `from`, each about 100 bytes, joined by commas (an array's content). */
export const padded = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `{"id":${from + i},"pad":"${'x'.repeat(80)}"}`).join(',');

/** Rows of `padded` whole in a prefix of a body (each ends with `"}`). */
export const wholeRowsIn = (prefix: string): number => (prefix.match(/"pad":"x{80}"\}/g) ?? []).length;

/** The rows JSON.parse and the rule find in a body (what a run without faults must write); `items` reads items=value. */
export function oracle(text: string, style: string): unknown[] {
  const found = rowsRule(style === '' ? 'none' : 'generic', style === '' ? {} : { items: 'value' }).find(JSON.parse(text));
  return found.ok ? [...found.rows] : [];
}

/** The rows in an --out file (CSV: its lines after the header). */
export function fileRows(path: string, format: 'ndjson' | 'csv' | 'json'): unknown[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  if (format === 'json') return text.trim() === '' ? [] : JSON.parse(text) as unknown[];
  const lines = text.split(/\r?\n/).filter((l) => l !== '');
  return format === 'csv' ? lines.slice(1) : lines.map((l) => JSON.parse(l) as unknown);
}

/** The run's totals line: "N requests, F failed, R rows, T ms". */
export function printedRows(stdout: string): number {
  const totals = /(\d+) rows, \d+ ms/.exec(stdout);
  assert.ok(totals, stdout);
  return Number(totals[1]);
}
