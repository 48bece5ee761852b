// Rule: the Postman export drops no construct of a block without a word. Every construct the parser kept
// on a block (KeptConstruct: a JetBrains `< {% %}` pre-request script, an httpYac `{{ }}` script block, a
// `>> file` response redirect, a `?? js` assertion, a `/* */` comment, …) has no place in a Postman item,
// so each is named in `warnings` with its line, the blocks without a request included
// (src/core/interop/postman/exportCollection.ts sayKept).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportPostmanCollection } from '../../src/core/interop/postman/exportCollection';

const cases: [string, string, number][] = [
  ['a JetBrains pre-request script', '# @name one\n< {%\n  request.variables.set("id", "7");\n%}\nGET http://a.test/x/{{id}}\n', 2],
  ['an httpYac script block', '{{\n  exports.q = 5;\n}}\n# @name two\nGET http://a.test/y?q={{q}}\n', 1],
  ['a response redirect', '# @name three\nGET http://a.test/z\n\n>> ./saved.json\n', 4],
  ['an httpYac script assertion', '# @name four\nGET http://a.test/w\n\n?? js response.parsedBody.ok == true\n', 4],
  ['a block comment', '/* the list\n   of items */\n# @name five\nGET http://a.test/v\n', 1],
  ['a script block in a block with no request', '{{\n  exports.q = 5;\n}}\n\n###\n# @name six\nGET http://a.test/u\n', 1],
];

void describe('Postman export: a kept construct is said', () => {
  for (const [what, text, line] of cases) {
    void it(`${what}: a warning names its line`, () => {
      const exported = exportPostmanCollection([{ path: 'a.http', text }], { name: 'x' });
      assert.equal(exported.collection.item.flatMap((f) => f.item ?? []).length, 1, 'the request is exported');
      assert.ok(exported.warnings.some((w) => w.includes(`line ${line}`) && /not exported/.test(w)), `dropped unsaid; warnings: ${JSON.stringify(exported.warnings)}`);
    });
  }
  void it('a plain request: no warning', () => {
    const exported = exportPostmanCollection([{ path: 'a.http', text: '# a comment\nGET http://a.test/t\n' }], { name: 'x' });
    assert.deepEqual(exported.warnings, []);
  });
});
