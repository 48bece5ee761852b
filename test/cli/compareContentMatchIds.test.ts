// Rule: without a key (no --key, no identifying field in the contract: README "the whole content when
// there is none"), records are matched by their whole content, id fields included: an id is part of a
// record's identity. Content matching used to leave out every field named like an id (`id`, `orderId`),
// so two exports where order 1 and order 2 swapped their quantities, or where record id 1 became id 2,
// "agreed" (exit 0). Each differs: exit 1.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-content-ids-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const cases: [string, string[], string[]][] = [
  ['two orders swapped their quantities', ['{"orderId":1,"qty":1}', '{"orderId":2,"qty":5}'], ['{"orderId":1,"qty":5}', '{"orderId":2,"qty":1}']],
  ['the only record is another one (id 1 → id 2)', ['{"id":1,"name":"Ann"}'], ['{"id":2,"name":"Ann"}']],
];

void describe('apiwb compare without a key: ids are part of the content records match by', () => {
  for (const [what, a, b] of cases) {
    void it(`${what}: not "agree"`, async () => {
      const [pa, pb] = [join(dir, 'a.ndjson'), join(dir, 'b.ndjson')];
      writeFileSync(pa, `${a.join('\n')}\n`);
      writeFileSync(pb, `${b.join('\n')}\n`);
      const result = await commandInProcess(compareCommand, [pa, pb]);
      assert.doesNotMatch(result.stdout, / agree: /, result.stdout);
      assert.equal(result.code, 1, result.stdout + result.stderr);
    });
  }
});
