// What the --out tests read of a run: bodies of padded rows, the rows JSON.parse and the rows rule find in
// one (the oracle), the rows an --out file holds, and the rows the run's totals line prints.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { csvColumns, csvField, csvRow, EXTRA_COLUMN } from '../../src/core/export/csvSink';
import { rowsRule } from '../../src/core/paging/rows';

/** `n` rows from id `from`, each about 100 bytes, joined by commas (an array's content). */
export const padded = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `{"id":${from + i},"pad":"${'x'.repeat(80)}"}`).join(',');

/** Rows of `padded` whole in a prefix of a body (each ends with `"}`). */
export const wholeRowsIn = (prefix: string): number => (prefix.match(/"pad":"x{80}"\}/g) ?? []).length;

/** The rows JSON.parse and the rule find in a body (what a run without faults must write); a style reads items=`items` (value by default). */
export function oracle(text: string, style: string, items = 'value'): unknown[] {
  const found = rowsRule(style === '' ? 'none' : 'generic', style === '' ? {} : { items }).find(JSON.parse(text));
  return found.ok ? [...found.rows] : [];
}

/**
 * The text a CSV --out of `rows` holds: csvSink's header (their keys, `_extra`) and a line a row. For rows
 * whose keys all show in the first rows written; the rows are the oracle's (JSON.parse of the whole body).
 */
export function csvOf(rows: readonly unknown[]): string {
  if (rows.length === 0) return '';
  const columns = csvColumns(rows);
  const known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
  return `${[columns.map((c) => csvField(c)).join(','), ...rows.map((row) => csvRow(row, columns, known))].join('\r\n')}\r\n`;
}

/** Asserts the --out file holds exactly `rows` (the oracle's) in `format`: NDJSON and JSON as parsed, CSV as text. */
export function assertFileHolds(path: string, format: 'ndjson' | 'csv' | 'json', rows: readonly unknown[], message: string): void {
  if (format === 'csv') assert.equal(existsSync(path) ? readFileSync(path, 'utf8') : '', csvOf(rows), message);
  else assert.deepEqual(fileRows(path, format), rows, message);
}

/** The `id` of each row in an --out file of `padded` rows (CSV: its first cell). */
export function fileIds(path: string, format: 'ndjson' | 'csv' | 'json'): number[] {
  return fileRows(path, format).map((row) => (typeof row === 'string' ? Number(row.split(',')[0]) : (row as { id: number }).id));
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
