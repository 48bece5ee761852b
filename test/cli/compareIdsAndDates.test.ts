// Rule: a record compare leaves out only the paths the caller ignores (--ignore); an id, a date or a
// UUID in a record is business data, compared as any other field (src/core/compare/records.ts). It used
// to borrow the History view's volatile rule (a name ending in Id or holding date/time, any ISO date or
// UUID value), so an order moved to another customer (customerId 5 → 6), a booking moved a month
// (arrival "2024-01-01" → "2024-02-01"), or a reference to another product (productRef UUID a → b)
// "agreed", exit 0. Each differs: exit 1.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-ids-dates-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const cases: [string, string, string][] = [
  ['customerId 5 → 6', '{"orderId":1,"customerId":5,"amount":10}', '{"orderId":1,"customerId":6,"amount":10}'],
  ['arrival 2024-01-01 → 2024-02-01', '{"orderId":1,"arrival":"2024-01-01","nights":2}', '{"orderId":1,"arrival":"2024-02-01","nights":2}'],
  ['productRef UUID a → b', '{"orderId":1,"productRef":"0b9d6f7e-1c2a-4e55-9a51-6f0c1d2e3f40"}', '{"orderId":1,"productRef":"7f3e2d1c-0b9a-4e55-8a51-123456789abc"}'],
];

void describe('apiwb compare --key: ids, dates and UUIDs are compared as any field', () => {
  for (const [what, a, b] of cases) {
    void it(`${what}: not "agree"`, async () => {
      const [pa, pb] = [join(dir, 'a.ndjson'), join(dir, 'b.ndjson')];
      writeFileSync(pa, `${a}\n`);
      writeFileSync(pb, `${b}\n`);
      const result = await commandInProcess(compareCommand, [pa, pb, '--key', 'orderId']);
      assert.doesNotMatch(result.stdout, / agree: /, result.stdout);
      assert.equal(result.code, 1, result.stdout + result.stderr);
    });
  }
});
