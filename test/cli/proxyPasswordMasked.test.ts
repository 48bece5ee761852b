// The rule (redact.ts, the URL user info rule, one home): a proxy URL's password is masked wherever the
// proxy is quoted, even when the URL does not parse. A password holding a `/` written as it is (not
// percent-encoded) in HTTP_PROXY, with or without a scheme, makes the URL unparseable; the warning that
// says so on stderr masks the password all the same.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PASSWORD = 'Pr0xy/Secret9';

void describe('a proxy password in HTTP_PROXY is not printed when the URL does not parse', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-proxypw-', (_req, res) => res.end('{}'));
    writeFileSync(join(server.dir, 'a.http'), 'GET {{base}}/x\n');
  });
  after(() => server.close());

  for (const proxy of [`http://alice:${PASSWORD}@127.0.0.1:3128`, `alice:${PASSWORD}@127.0.0.1:3128`]) {
    void it(proxy.startsWith('http') ? 'with a scheme' : 'without a scheme', async () => {
      const r = await runInProcess([join(server.dir, 'a.http'), '--env', 'local', '--env-file', server.envFile], { HTTP_PROXY: proxy });
      const printed = r.stdout + r.stderr;
      assert.match(r.stderr, /HTTP_PROXY/, `the proxy is said (control):\n${printed}`);
      assert.ok(!printed.includes('Secret9'), `the proxy password is printed:\n${printed}`);
    });
  }
});
