// Times that tell the truth (issue 37): a request's time covers everything until its result is known
// (the whole body read and examined), and a second figure is the server's part (time to its headers).
// Over real HTTP on 127.0.0.1; the spill file a large body goes to is the run's own and goes away.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatOutcome } from '../../src/cli/reporters/summary';
import { timeInRun } from '../../src/cli/overlapPort';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { openSpill } from '../../src/core/json/spill';
import { DISCARD, runExchange } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from './exchangeContext';

const BODY_DELAY_MS = 150;
let server: Server;
let base = '';

void describe('request times', () => {
  before(async () => {
    server = createServer((_req, res) => {
      // Headers at once, the body's end only later: the server is quick to answer, slow to finish.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":1},');
      setTimeout(() => res.end('{"id":2}]'), BODY_DELAY_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await closeHttpAgents();
  });

  void it("a request's time runs until its result is known; the server's part is the time to its headers", async () => {
    const ports = { http: httpClient, catalog: createCatalog([]), timeoutMs: 5000, guard: new SecretBindings() };
    for (const rowsTo of [DISCARD, undefined]) {
      const result = await runExchange({ file: parseHttpFile('GET {{base}}/slow-body\n'), requestIndex: 0, prepare: devContext(base), pages: 'first', ...(rowsTo ? { rowsTo } : {}) }, ports);
      const timing = result.response!.timing;
      assert.equal(result.rows?.count, 2);
      assert.ok(timing.totalMs >= BODY_DELAY_MS, `the whole body counts (${timing.totalMs} ms)`);
      assert.ok(timing.firstByteMs < BODY_DELAY_MS, `the server answered at once (${timing.firstByteMs} ms)`);
      assert.equal(timeInRun(result.response!, 0), timing.totalMs);
      assert.equal(timeInRun(result.response!, timing.totalMs), timing.firstByteMs, 'never less than the server took');
    }
  });

  void it('the line says both figures: the whole time, then the server\'s part', () => {
    const line = formatOutcome({ file: 'a.http', line: 1, label: 'slow', method: 'GET', url: 'http://127.0.0.1:1/x', status: 200, totalMs: 2712.4, serverMs: 41.6, rows: 3, businessFailures: [], ok: true }, false);
    assert.equal(line, '✓ slow  GET http://127.0.0.1:1/x  200  2712 ms (server 42 ms)  3 rows');
    const walk = formatOutcome({ file: 'a.http', line: 1, label: 'walk', method: 'GET', url: 'http://127.0.0.1:1/x', status: 200, totalMs: 90, rows: 3, businessFailures: [], ok: true }, false);
    assert.equal(walk, '✓ walk  GET http://127.0.0.1:1/x  200  90 ms  3 rows');
  });

  void it('a spilled body is a 0600 file in a folder of its own under the OS temp folder, removed after', async () => {
    const spill = await openSpill();
    try {
      assert.equal(dirname(dirname(spill.path)), tmpdir());
      assert.equal(statSync(spill.path).mode & 0o777, 0o600);
      assert.equal(statSync(dirname(spill.path)).mode & 0o777, 0o700);
      await spill.write(Buffer.from('{"a":'));
      await spill.write(Buffer.from('1}'));
      const back: Buffer[] = [];
      await spill.readBack((chunk) => { back.push(Buffer.from(chunk)); });
      assert.equal(Buffer.concat(back).toString(), '{"a":1}');
    } finally {
      await spill.remove();
    }
    assert.equal(existsSync(dirname(spill.path)), false);
  });
});
