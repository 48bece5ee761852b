// jsonTextTooDeep skips strings with indexOf; it must answer exactly as the plain character loop it
// replaced (kept here as the reference) on hostile text: escapes, escaped quotes and newlines, unterminated
// strings, newlines ending a string, brackets in strings, a backslash at the very end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTextTooDeep } from '../../src/core/json/depth';

function reference(text: string, limit: number): { offset: number; limit: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22 || c === 0x0a) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return { offset: i, limit };
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

void test('the same answer as the character loop on hand-written hostile text', () => {
  const cases = [
    '', '"', '\\', '"\\', '"\\"[[[', '"a\\\\"[[[', '"a\n[[[', '"a\\\n[[["', '[["]]]"[[', '[{"k":"v\\"]"}]', '"[[[[', '[[["\\u005b"]]]',
    '{"a":[{"b":[{"c":"}}}}"}]}]}', '[[[["\n"]]]]', '\\"[[[[', '"é☃[["[[[[', '"\\', '["\\\\\\"[[["',
  ];
  for (const text of cases) for (const limit of [0, 1, 2, 3, 512]) assert.deepEqual(jsonTextTooDeep(text, limit), reference(text, limit), JSON.stringify({ text, limit }));
});

void test('the same answer as the character loop on 20 000 random texts', () => {
  const alphabet = ['[', ']', '{', '}', '"', '\\', '\n', 'a', ' ', ':', ',', 'é'];
  let seed = 14;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 20_000; n++) {
    const length = Math.floor(random() * 40);
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    const limit = Math.floor(random() * 5);
    assert.deepEqual(jsonTextTooDeep(text, limit), reference(text, limit), JSON.stringify({ text, limit }));
  }
});

void test('a deep body past long strings is found at the same offset', () => {
  const text = `{"a":"${'x'.repeat(100_000)}","b":${'['.repeat(600)}${']'.repeat(600)}}`;
  assert.deepEqual(jsonTextTooDeep(text), reference(text, 512));
  assert.ok(jsonTextTooDeep(text));
});
