// The direct JSON tree reader (src/server/service/jsonTree.ts) is a fast path of the depth check and
// jsonc-parser's parseTree: whenever it answers, the depth check passes, its tree is parseTree's (same
// nodes, offsets, lengths, values, colon offsets, parents) and parseTree finds no error; on anything
// else it gives up. jsonTree (the entry point) answers what the depth check then parseTree answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTree, type ParseError } from 'jsonc-parser';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../src/core/json/depth';
import { directTree, jsonTree } from '../../src/server/service/jsonTree';

const STRICT = { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false };

/** What jsonTree stands for: the depth check, then parseTree. */
function slowTree(text: string) {
  const tooDeep = jsonTextTooDeep(text);
  if (tooDeep) return { tree: undefined, errors: [], tooDeep };
  const errors: ParseError[] = [];
  return { tree: parseTree(text, errors, STRICT), errors };
}

/** Checks the property on one text (and, with a small depth limit, the depth rule); true when the direct reader answered. */
function check(text: string): boolean {
  assert.deepEqual(jsonTree(text), slowTree(text), JSON.stringify(text));
  for (const limit of [1, 2, 3]) {
    if (directTree(text, limit)) assert.equal(jsonTextTooDeep(text, limit), undefined, `limit ${limit}: ${JSON.stringify(text)}`);
  }
  const fast = directTree(text);
  if (!fast) return false;
  assert.equal(jsonTextTooDeep(text), undefined, JSON.stringify(text));
  const errors: ParseError[] = [];
  const slow = parseTree(text, errors, STRICT);
  assert.deepEqual(errors, [], `answered a text parseTree rejects: ${JSON.stringify(text)}`);
  assert.deepEqual(fast, slow, JSON.stringify(text));
  return true;
}

const VALID = [
  '{}', '[]', '{ }', '[ ]', '0', '-0', '1', '-1', '12.5', '1e3', '1E+3', '-1.5e-7', '1e999', '123456789012345678901234567890', '"x"', '""', 'true', 'false', 'null',
  '{"a":1}', '{ "a" : 1 , "b" : [ 1 , 2 , { "c" : null } ] }', '{\n  "OpCode": 12,\n  "Choices": [\n    { "Label": "Suite", "Order": 1, "IsOther": false }\n  ]\n}\n',
  '\r\n\t{"a":"b"}\t\r\n', '{"a":1,"a":2}', '{"__proto__":{"x":1},"constructor":[]}', '[[[[[]]]]]', '{"é€😀":"ünï😀"}', '{"":""}',
  '{"a":"\u2028\u2029"}', '{"x": 1      }', '[1,2,3,4,5,6,7,8,9,10]',
];
const HOSTILE = [
  '', ' ', '{', '}', '[', ']', '{"a"}', '{"a":}', '{"a":1,}', '[1,]', '[,1]', '{,}', '{"a":1 "b":2}', '{"a" 1}', '{a:1}', "{'a':1}", '01', '-', '-a', '1.', '.5', '1e', '1e+', '+1',
  '0x10', 'NaN', 'Infinity', 'tru', 'truex', 'nulll', 'true1', '1true', '{"a":true1}', '"unterminated', '"a\nb"', '"a\tb"', '"a\\"b"', '"\\u0041"', '"\\x"', '{"a\\u0041":1}',
  '// c\n{}', '{} // c', '/* c */ {}', '{"a":1}/', '{} {}', '{}}', '[]]', '{"a":1}x', '\ufeff{}', '\u00a0{}', '{\u00a0}', '{"a":\u20281}', '\v{}', '\f[]', '[1\v]',
  '{"a":0000000000000000000000000000000000000000000000000012}', '{"a":[1,2}', '{"a":{"b":1]}', '[{"a":1]', '{"a":-}', '{"a":--1}', '{"a":1.e5}', '{"a":1e5.5}', '{"a":0.5.5}', '{"a":"x"y}', '{"a"::1}', '{"a":1,,"b":2}', '0 0', 'null null',
];

void test('the direct reader answers parseTree\'s tree on plain valid JSON', () => {
  for (const text of VALID) assert.ok(check(text), `answered: ${JSON.stringify(text)}`);
});

void test('on hostile texts the direct reader gives up or answers exactly parseTree\'s tree', () => {
  for (const text of HOSTILE) check(text);
});

/** A small deterministic generator (no Math.random: a failure names a text that fails again). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function generate(next: () => number, depth: number): string {
  const space = (): string => [' ', '', '\n', '\t', '\r\n', '  '][Math.floor(next() * 6)] ?? '';
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  const strings = ['"a"', '""', '"Label"', '"x y"', '"é😀"', '"{{v}}"', '"a/b"'];
  switch (pick) {
    case 0: return ['0', '-1', '12', '3.25', '-0.5e3', '1E-2', '100000000000000000000'][Math.floor(next() * 7)] ?? '0';
    case 1: return strings[Math.floor(next() * strings.length)] ?? '""';
    case 2: return ['true', 'false', 'null'][Math.floor(next() * 3)] ?? 'null';
    case 3: case 4: return `"k${Math.floor(next() * 5)}"`;
    case 5: {
      const n = Math.floor(next() * 4);
      return `[${space()}${Array.from({ length: n }, () => generate(next, depth + 1) + space()).join(`,${space()}`)}]`;
    }
    default: {
      const n = Math.floor(next() * 4);
      return `{${space()}${Array.from({ length: n }, () => `${strings[Math.floor(next() * strings.length)] ?? '""'}${space()}:${space()}${generate(next, depth + 1)}${space()}`).join(`,${space()}`)}}`;
    }
  }
}

const MUTATIONS = ['', ' ', ',', ':', '{', '}', '[', ']', '"', '\\', '/', '*', '\n', '\u0001', '\u00a0', '\ufeff', '-', '+', '.', 'e', '0', '1', 'x', 't', 'n', '\u2028', '😀'];

void test('generated bodies and their one-character mutations: the direct reader is parseTree or gives up', () => {
  const next = random(14);
  let answered = 0;
  for (let i = 0; i < 3000; i++) {
    const text = generate(next, 0);
    if (check(text)) answered++;
    const at = Math.floor(next() * (text.length + 1));
    const cut = Math.floor(next() * 2);
    check(text.slice(0, at) + (MUTATIONS[Math.floor(next() * MUTATIONS.length)] ?? '') + text.slice(at + cut));
  }
  assert.ok(answered > 2500, `the direct reader answered ${answered} of 3000 valid generated bodies`);
});

void test('nesting: the direct reader answers up to the depth limit and gives up past it, where the depth check says where', () => {
  const nested = (depth: number): string => `${'['.repeat(depth - 1)}{"a":1}${']'.repeat(depth - 1)}`;
  assert.ok(check(nested(64)));
  // At the limit itself (a tree too deep for assert.deepEqual's recursion): answered, the depth check passes.
  assert.ok(directTree(nested(MAX_JSON_DEPTH)));
  assert.equal(jsonTextTooDeep(nested(MAX_JSON_DEPTH)), undefined);
  assert.equal(directTree(nested(MAX_JSON_DEPTH + 1)), undefined);
  const deep = jsonTree(nested(MAX_JSON_DEPTH + 1));
  assert.deepEqual(deep, { tree: undefined, errors: [], tooDeep: { offset: MAX_JSON_DEPTH, limit: MAX_JSON_DEPTH } });
  check(`{"a":${'['.repeat(20_000)}`); // unterminated and far too deep: no stack overflow
  for (const limit of [1, 2, 3]) {
    assert.ok(directTree(nested(limit), limit), `depth ${limit} within ${limit}`);
    assert.equal(directTree(nested(limit + 1), limit), undefined, `depth ${limit + 1} past ${limit}`);
  }
});
