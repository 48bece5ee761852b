// Invariant (f): input the product itself reads gets no unclear error and loses nothing. The env file
// reader takes comments (src/core/env/loadEnvFile.ts:44, parseTree with disallowComments: false), so a
// team's http-client.env.json may hold them; the Postman import merges its environment into that file with
// JSON.parse, which threw a bare SyntaxError on it after the editor had written the collection's .http
// files: a half import; had it parsed, the comments would be gone from the file rewritten. Now
// envFileWithImport (src/core/interop/postman/envFileMerge.ts) reads it with the env reader and edits the
// text in place, and the editor merges before it writes any file (collectionCommands.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { EnvFileError } from '../../src/core/env/model';
import { envFileWithImport } from '../../src/core/interop/postman/envFileMerge';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

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

  const imported = importPostmanCollection(JSON.stringify({
    info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'region', value: 'eu' }, { key: 'tier', value: 'gold' }],
    item: [{ name: 'one', request: { method: 'GET', url: 'https://api.example.com/a' } }],
  }), 'c.json');

  void it('an environment already there takes the variables in place, its comments kept', () => {
    const existing = '{\n  "postman": {\n    // set by hand last week\n    "region": "us", /* the old one */\n    "keep": "me"\n  }\n}\n';
    const merged = envFileWithImport(imported, existing);
    const env = parseEnvFile(merged, 'http-client.env.json').environments['postman'];
    assert.deepEqual([env?.variables['region'], env?.variables['tier'], env?.variables['keep']], ['eu', 'gold', 'me']);
    assert.ok(merged.includes('// set by hand last week') && merged.includes('/* the old one */'), merged);
  });

  void it('an env file the reader refuses: its error, naming the file and the line, and nothing merged', () => {
    const broken = '{\n  "dev": { "base": "https://api.example.com", },\n}\n';
    assert.throws(() => envFileWithImport(imported, broken, 'http-client.env.json'), (error: unknown) =>
      error instanceof EnvFileError && error.message.includes('http-client.env.json') && error.where.line === 2);
  });
});
