// Generated code never carries a secret, in any form: a Basic credential written out (`Basic {{user}}:{{key}}`
// or `Basic {{user}} {{key}}`) is base64-encoded before it goes (requestShape.ts), so the check of the
// generated text looks for every form of each known secret, as the send boundary does, not the plain one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../src/core/catalog/index';
import { generateSnippet } from '../../src/core/codegen/index';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { selectEnvironment } from '../../src/core/env/session';
import { parseHttpFile } from '../../src/core/httpfile/parser';

const PASSWORD = 'S3cr3t-Passw0rd-123';
const environment = selectEnvironment(parseEnvFile(JSON.stringify({ dev: { base: 'https://api.example.test', user: 'alice', svc: PASSWORD } }), 'http-client.env.json'), 'dev');

for (const header of ['Basic {{user}}:{{svc}}', 'Basic {{user}} {{svc}}', 'Basic alice {{svc}}']) {
  void test(`${header}: refused, nothing generated, when {{svc}} holds a known secret`, async () => {
    const file = parseHttpFile(`GET {{base}}/v1/things\nAuthorization: ${header}\n`);
    const input = { file, requestIndex: 0, environment, allEnvironments: [environment], catalog: createCatalog([]), readInclude: () => Promise.reject(new Error('none')), knownSecrets: [PASSWORD] };
    await assert.rejects(generateSnippet(input, 'curl'), /secret/);
  });
}
