// The count of fields not held (notHeld.ts: past NAMES_NOT_HELD only counted) against JSON.parse of the
// whole body: every field not held is named or counted, whatever is kept after it (a review found a
// filter that lowered the count for fields kept later, halving it: drift would have been silent on
// thousands of fields it never compared). The count is an upper bound: a key given twice past the cap
// counts twice (its words say "up to"), never fewer than the fields not held.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { fieldsNotHeld, fieldsNotHeldUnnamed, TOO_LARGE_TO_KEEP } from '../../src/core/paging/notHeld';
import { readSkeleton } from './pathReads';


function record(i: number): string {
  return `{"id":${i},"name":"Customer ${i} of the test","city":"Springfield","amount":${(i % 997) * 1.25},"active":${i % 2 === 0}}`;
}

/** The body of these parts read streamed: JSON.parse's fields its skeleton does not hold, and those it names or counts. */
async function notHeldOf(parts: readonly string[]): Promise<{ notHeld: number; namedOrCounted: number }> {
  const text = `{${parts.join(',')}}`;
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const skeleton = await readSkeleton(text);
  // The oracle: JSON.parse's fields the skeleton does not hold (absent, or the word in their place).
  const notHeld = Object.keys(parsed).filter((k) => !Object.hasOwn(skeleton, k) || skeleton[k] === TOO_LARGE_TO_KEEP).length;
  assert.ok(notHeld > 1000, `the body must run past the names' cap (${notHeld})`);
  return { notHeld, namedOrCounted: fieldsNotHeld(skeleton).length + fieldsNotHeldUnnamed(skeleton) };
}

void it('fields not held are all named or counted, whatever is kept after them (JSON.parse oracle)', async () => {
  const parts: string[] = [];
  // ~11 MB of records: past the 8 MiB budget about 25 000 of them are not held.
  for (let i = 0; i < 110_000; i++) parts.push(`"r${String(i).padStart(8, '0')}":${record(i)}`);
  // Then 60 000 small arrays (lanes: each defined in the skeleton), named apart from every record.
  for (let i = 0; i < 60_000; i++) parts.push(`"a${i}":[${i}]`);
  const { notHeld, namedOrCounted } = await notHeldOf(parts);
  assert.equal(namedOrCounted, notHeld, 'named + counted = fields not held');
});

void it('a key given twice past the names\' cap: the count is an upper bound, never fewer than JSON.parse\'s', async () => {
  const parts: string[] = [];
  for (let i = 0; i < 100_000; i++) parts.push(`"r${String(i).padStart(8, '0')}":${record(i)}`);
  // The last 10 000 records given again: JSON.parse keeps one field each.
  for (let i = 90_000; i < 100_000; i++) parts.push(`"r${String(i).padStart(8, '0')}":${record(i)}`);
  const { notHeld, namedOrCounted } = await notHeldOf(parts);
  assert.ok(namedOrCounted >= notHeld, 'named + counted: at least the fields not held');
});
