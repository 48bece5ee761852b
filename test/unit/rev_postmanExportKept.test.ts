// Invariant C: no block or line of an `.http` file is dropped without a word, import/export included.
// The Postman export (src/core/interop/postman/exportCollection.ts) warns that a `> {% %}` response handler
// is not exported, but a block's other kept constructs (a JetBrains `< {% %}` pre-request script, an
// httpYac `{{ }}` script block, a `>> file` response redirect, a `?? js` assertion) leave the collection
// with neither their text nor a warning: the imported request runs without them, unsaid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportPostmanCollection } from '../../src/core/interop/postman/exportCollection';

const cases: [string, string, string][] = [
  ['a JetBrains pre-request script', '# @name one\n< {%\n  request.variables.set("id", "7");\n%}\nGET http://a.test/x/{{id}}\n', 'request.variables.set'],
  ['an httpYac script block', '{{\n  exports.q = 5;\n}}\n# @name two\nGET http://a.test/y?q={{q}}\n', 'exports.q'],
  ['a response redirect', '# @name three\nGET http://a.test/z\n\n>> ./saved.json\n', 'saved.json'],
  ['an httpYac script assertion', '# @name four\nGET http://a.test/w\n\n?? js response.parsedBody.ok == true\n', 'parsedBody.ok'],
];

void describe('Postman export: a kept construct is carried or said', () => {
  for (const [what, text, mark] of cases) {
    void it(`${what}: in the collection or in a warning`, () => {
      const exported = exportPostmanCollection([{ path: 'a.http', text }], { name: 'x' });
      assert.equal(exported.collection.item.flatMap((f) => f.item ?? []).length, 1, 'the request is exported');
      const carried = exported.text.includes(mark);
      const said = exported.warnings.some((w) => /script|redirect|assertion|not exported|kept/i.test(w));
      assert.ok(carried || said, `dropped unsaid; warnings: ${JSON.stringify(exported.warnings)}`);
    });
  }
});
