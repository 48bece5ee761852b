// `apiwb run --out` over an old file, stopped by SIGINT mid-body, says where the old file is kept
// (fileSink.ts sayAsideIfStopped) as every other line of the CLI is said (the next run's note of the same
// copy, keptAsideNotes): through the Redactor and terminalSafe, so a --out name holding a terminal escape
// sequence is shown escaped, and one holding a secret of the run is masked. The test's own server on
// 127.0.0.1 port 0; the CLI as a child (src/cli/main.ts through tsx), as outAsideSignal.test.ts runs it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { outputStoppedAtAside } from './outAside';
import { startLocalServer, type LocalServer } from './localServer';
import { padded } from './outFileRows';

void describe('--out aside: the stop line in terminal-safe, redacted words', () => {
  let server: LocalServer;
  let stalled: (() => void) | undefined;
  before(async () => {
    server = await startLocalServer('apiwb-aside-words-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${padded(0, 40_000)},`);
      stalled?.();
    });
  });
  after(() => server.close());

  /** The lines saying where the old file is kept, of a run writing `out` stopped by SIGINT mid-body. */
  async function stopLines(out: string, env: Record<string, string> = {}): Promise<string[]> {
    const file = join(server.dir, 'stall.http');
    writeFileSync(file, 'GET {{base}}/stall\n');
    writeFileSync(out, 'old rows\n');
    const output = await outputStoppedAtAside(['run', file, '--env', 'local', '--env-file', server.envFile, '--out', out], out, new Promise<void>((resolve) => { stalled = resolve; }), env);
    const said = output.split('\n').filter((line) => line.includes('is kept at'));
    assert.equal(said.length, 1, JSON.stringify(output));
    return said;
  }

  void it('a --out name with an escape sequence: the line saying where the old file is kept holds no raw ESC or BEL', async () => {
    // An OSC sequence that would set the terminal's title, in a file name (legal on Linux).
    const [said] = await stopLines(join(server.dir, 'rows\u001b]0;pwned\u0007.out'));
    assert.doesNotMatch(said!, /[\u001b\u0007]/, `raw escape sequence printed: ${JSON.stringify(said)}`);
    assert.ok(said!.includes('rows\\x1b]0;pwned\\x07.out'), `shown escaped: ${JSON.stringify(said)}`);
  });

  void it('a --out name holding a secret of the run (APIWB_SECRET_*): masked in that line', async () => {
    const secret = 'Zq8vK3mW9pLx2RtY';
    const [said] = await stopLines(join(server.dir, `rows-${secret}.out`), { APIWB_SECRET_STALL_TOKEN: secret });
    assert.ok(!said!.includes(secret), `secret printed: ${JSON.stringify(said)}`);
    assert.match(said!, /^apiwb: stopped: the file that was at .*rows-.* before this run is kept at /);
  });
});
