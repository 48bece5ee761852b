// Invariant (a): no secret value reaches an output file. A private value made of digits only (a numeric API
// key, a PIN) that a server echoes back as a JSON number reaches --out as it came, in NDJSON and in CSV,
// whether the body is held whole or streamed; the same value echoed in a string is masked. The Redactor
// scrubs known values from strings only (src/core/secrets/redact.ts:316-317, redactTree returns any
// non-string scalar, and the number kept as its text, untouched). A server of the test's own on 127.0.0.1.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const SECRET = '98765432109876543210';
const BODIES: Record<string, string> = {
  string: `[{"id":1,"note":"${SECRET}"}]`,
  number: `[{"id":1,"n":${SECRET}}]`,
  nested: `{"Data":[{"id":1,"n":${SECRET}}]}`,
  // Unlisted case: the digits inside a longer number, in an array (a NumberText: kept as written).
  fraction: `[{"id":1,"n":[1,${SECRET}.5]}]`,
};

void describe('a numeric secret echoed as a JSON number', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rev-numsecret-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[(req.url ?? '').slice(1)]);
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apiKey: SECRET } }));
  });
  after(() => server.close());

  for (const [name, format] of [['string', 'ndjson'], ['number', 'ndjson'], ['number', 'csv'], ['nested', 'ndjson'], ['fraction', 'ndjson']] as const) {
    void it(`${name} body, ${format}: the value never reaches --out`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\nX-Api-Key: {{apiKey}}\n`);
      const out = join(server.dir, `${name}-${format}.${format}`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
      assert.ok(existsSync(out), 'no --out written');
      const text = readFileSync(out, 'utf8');
      assert.ok(!text.includes(SECRET), `the private value reached --out:\n${text}`);
      assert.ok(!`${r.stdout}${r.stderr}`.includes(SECRET), 'the private value was printed');
    });
  }
});
