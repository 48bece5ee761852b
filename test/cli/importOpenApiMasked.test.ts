// The rule (ARCHITECTURE.md invariant 5): everything printed goes through the Redactor. `apiwb
// import-openapi URL` quotes the URL in its fault lines: a document fetched as
// `http://ann:PASSWORD@host/openapi.json` or `…?api_key=KEY` has the password and the key masked
// (`ann:***@`, `api_key=***`) when the fetch fails (connection refused, 401), as `apiwb run` does.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { runImportOpenApi } from '../../src/cli/importCommand';
import { closedPort, startLocalServer, type LocalServer } from './localServer';

const SECRET = 'S3cretPw-1234';

void describe('apiwb import-openapi does not print a secret of the URL it was given', () => {
  let server: LocalServer;
  let refusedPort = 0;
  before(async () => {
    server = await startLocalServer('apiwb-import-', (_req, res) => { res.statusCode = 401; res.end('{"error":"no"}'); });
    refusedPort = await closedPort();
  });
  after(() => server.close());

  const urls: [string, () => string][] = [
    ['user info, connection refused', () => `http://ann:${SECRET}@127.0.0.1:${refusedPort}/openapi.json`],
    ['user info, 401', () => `${server.origin.replace('http://', `http://ann:${SECRET}@`)}/openapi.json`],
    ['api_key query parameter, 401', () => `${server.origin}/openapi.json?api_key=${SECRET}`],
  ];
  for (const [what, url] of urls) {
    void it(what, async () => {
      let printed = '';
      const code = await runImportOpenApi([url()], { stdout: (t) => { printed += t; }, stderr: (t) => { printed += t; } });
      assert.equal(code, 2, printed);
      assert.match(printed, /openapi\.json/);
      assert.ok(!printed.includes(SECRET), `the secret is printed:\n${printed}`);
    });
  }
});
