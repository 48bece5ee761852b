// A Postman import writes no secret into the .http files (collections are "reviewable in git"): a literal
// credential becomes a reference in every part of a request, disabled ones too (literalCredentials.ts).
// A DISABLED `api_key=…` query parameter is written as `# disabled query: api_key={{api_key}}`, as an
// enabled one and a disabled Authorization header are.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const KEY = 'literal-api-key-value-3141';

void it('a disabled secret-named query parameter is not imported as written', () => {
  const collection = {
    info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [{
      name: 'items',
      request: {
        method: 'GET',
        header: [{ key: 'Authorization', value: `Bearer ${KEY}-h`, disabled: true }],
        url: { raw: 'https://api.test/items', protocol: 'https', host: ['api', 'test'], path: ['items'], query: [{ key: 'api_key', value: KEY, disabled: true }] },
      },
    }],
  };
  const imported = importPostmanCollection(JSON.stringify(collection), 'c.json');
  const text = imported.files.map((f) => f.text).join('\n');
  assert.ok(!text.includes(`${KEY}-h`), 'the disabled Authorization header is scrubbed (control)');
  assert.ok(!text.includes(KEY), `the imported .http file holds the disabled api_key's literal:\n${text}`);
  assert.match(text, /^# disabled query: api_key=\{\{api_key\}\}$/m, text);
  assert.ok(imported.dropped.some((d) => d.what === 'disabled query parameter api_key' && d.replacedBy === '{{api_key}}'), JSON.stringify(imported.dropped));
});
