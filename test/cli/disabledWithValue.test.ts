// Adversarial review of 3ed6f11 (act on or say every `# @` directive). httpYac's `# @disabled` takes an
// optional expression and skips the request only when it is truthy (httpyac/dist: the `disabled` meta
// hook evaluates its value, `!await evalExpression(value)` lets the request run): `# @disabled false` is
// sent by httpYac, as is `# @disabled {{ skipDelete }}` while that is false. directives.ts gives
// `disabled` the fate 'skip' whatever its value, so apiwb run skips such a request and ends all well
// (exit 0): the author's request is not sent and nothing fails. The invariant of the directive rule —
// never send a request other than as its author meant, and say it — wants either the request sent or
// the run refusing it (an error, exit ≠ 0); a bare `# @disabled` is skipped (control).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('# @disabled with a false value', () => {
  let server: LocalServer;
  const seen: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-disabled-', (req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    writeFileSync(join(server.dir, 'false.http'), '# @name sent\n# @disabled false\nGET {{base}}/wanted\n');
    writeFileSync(join(server.dir, 'expr.http'), '# @name guessed\n# @disabled {{skipDelete}}\nDELETE {{base}}/guessed\n');
    writeFileSync(join(server.dir, 'bare.http'), '# @name skipped\n# @disabled\nGET {{base}}/unwanted\n');
  });

  after(async () => { await server.close(); });

  void it('`# @disabled false` is sent, or refused with an error: never skipped with exit 0', async () => {
    seen.length = 0;
    const result = await runInProcess([join(server.dir, 'false.http'), '--env', 'local', '--env-file', server.envFile]);
    const sent = seen.includes('/wanted');
    assert.ok(sent || result.code !== 0, `not sent, exit ${result.code}: ${result.stdout}${result.stderr}`);
  });

  void it('`# @disabled false` is sent, and the run ends well', async () => {
    seen.length = 0;
    const result = await runInProcess([join(server.dir, 'false.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(seen, ['/wanted'], result.stdout + result.stderr);
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  void it('`# @disabled` with an expression is neither sent nor skipped quietly: not run, an error', async () => {
    seen.length = 0;
    const result = await runInProcess([join(server.dir, 'expr.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(seen, [], result.stdout + result.stderr);
    assert.notEqual(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /@disabled.*expression.*not run/);
  });

  void it('a bare `# @disabled` is not sent (control)', async () => {
    seen.length = 0;
    const result = await runInProcess([join(server.dir, 'bare.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(seen, [], result.stdout + result.stderr);
  });
});
