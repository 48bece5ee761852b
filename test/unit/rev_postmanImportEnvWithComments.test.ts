// Invariant (f): input the product itself reads gets no unclear error and loses nothing. The env file
// reader takes comments (src/core/env/loadEnvFile.ts:44, parseTree with disallowComments: false), so a
// team's http-client.env.json may hold them; the Postman import merges its environment into that file with
// JSON.parse (src/core/interop/postman/importCollection.ts:372-377, envFileWithImport), which throws a bare
// SyntaxError on it. The editor's import has by then written the collection's .http files
// (src/extension/collections/collectionCommands.ts:155-159): a half import, said as "Expected property
// name or '}' in JSON at position 4". Had it parsed, the comments would be gone from the file rewritten.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { envFileWithImport, importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const ENV_FILE = '{\n  // the team\'s API\n  "dev": { "base": "https://api.example.com" }\n}\n';

void describe('Postman import into an env file with comments', () => {
  void it('the env file is one the product reads', () => {
    assert.deepEqual(parseEnvFile(ENV_FILE, 'http-client.env.json').names, ['dev']);
  });

  void it('the imported environment is merged, the file keeping what it held', () => {
    const imported = importPostmanCollection(JSON.stringify({
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'region', value: 'eu' }],
      item: [{ name: 'one', request: { method: 'GET', url: 'https://api.example.com/a' } }],
    }), 'c.json');
    let merged = '';
    assert.doesNotThrow(() => { merged = envFileWithImport(imported, ENV_FILE); });
    const names = parseEnvFile(merged, 'http-client.env.json').names;
    assert.ok(names.includes('dev') && names.includes('postman'), `environments after the merge: ${names.join(', ')}`);
    assert.ok(merged.includes("// the team's API"), 'the comment was dropped');
  });
});
