// The CLI's pieces without a child process: argument parsing, the env-var SecretStore, the --out sinks and
// the summary line.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EnvironmentSecretStore, secretValuesFromEnvironment } from '../../src/cli/nodePorts/envSecretStore';
import { openOutputSink } from '../../src/cli/reporters/outputSink';
import { Redactor } from '../../src/core/secrets';
import { formatOutcome, formatTotals } from '../../src/cli/reporters/summary';
import { createProgress } from '../../src/cli/reporters/progress';
import { rowsOfBody } from '../../src/core/paging/rows';

const countRows = (text: string): number | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return rowsOfBody(body)?.rows.length;
};
import { parseRunArgs } from '../../src/cli/runArguments';

void describe('apiwb run pieces', () => {
  void it('the progress line is visible only on a terminal, and writes nothing elsewhere', () => {
    const written: string[] = [];
    const stream = (isTTY: boolean): NodeJS.WriteStream => ({ isTTY, columns: 80, write: (text: string) => written.push(text) }) as unknown as NodeJS.WriteStream;
    const quiet = createProgress(stream(false));
    assert.equal(quiet.visible, false);
    quiet.update('[░░] 0/2 a');
    quiet.clear();
    assert.equal(written.length, 0);
    const shown = createProgress(stream(true));
    assert.equal(shown.visible, true);
    shown.update('[░░] 0/2 a');
    assert.equal(written.length, 1);
    assert.ok(written[0]!.endsWith('[░░] 0/2 a'));
  });

  void it('parses options; rejects what makes no sense', () => {
    const args = ['a.http', 'dir', '--env', 'sandbox', '--all-pages', '--out', 'x.csv', '--max-pages', '3', '--timeout', '500', '--insecure'];
    assert.deepEqual(parseRunArgs(args), {
      paths: ['a.http', 'dir'], env: 'sandbox', allPages: true, out: 'x.csv', format: 'csv', maxPages: 3, timeoutMs: 500, maxWaitMs: 300_000, insecure: true, insecureTokenEndpoint: false, csvRaw: false, resume: false, argv: args, checkContract: false, overlays: [],
    });
    assert.equal((parseRunArgs([...args, '--max-wait', '0']) as { maxWaitMs: number }).maxWaitMs, 0, '--max-wait 0: no waiting at all');
    assert.equal((parseRunArgs([...args, '--max-wait', '90']) as { maxWaitMs: number }).maxWaitMs, 90_000);
    assert.throws(() => parseRunArgs([...args, '--max-wait', '1.5']), /--max-wait must be a whole number of seconds, not '1.5'/);
    assert.throws(() => parseRunArgs([...args, '--max-wait', '-1']), /--max-wait/);
    assert.throws(() => parseRunArgs(['a.http', '--env', 's', '--resume']), /--resume needs --all-pages and --out/);
    assert.throws(() => parseRunArgs(['a.http', '--env', 's', '--all-pages', '--out', 'o.json', '--resume']), /--resume needs --format ndjson or csv/);
    assert.equal(parseRunArgs(['-h']), 'help');
    assert.throws(() => parseRunArgs(['--env', 's']), /at least one \.http file/);
    assert.throws(() => parseRunArgs(['a.http']), /--env NAME is required/);
    assert.throws(() => parseRunArgs(['a.http', '--env', 's', '--format', 'xml', '--out', 'o']), /--format must be ndjson, csv or json/);
    assert.throws(() => parseRunArgs(['a.http', '--env', 's', '--format', 'csv']), /--format needs --out/);
    assert.throws(() => parseRunArgs(['a.http', '--env', 's', '--max-pages', '0']), /--max-pages must be a positive integer/);
  });

  void it('the env-var SecretStore reads APIWB_SECRET_*, keeps obtained tokens in memory only', async () => {
    const env = { APIWB_SECRET_ENGAGEMENT_PASSWORD: 'pw-1234', APIWB_SECRET_FUNDRAISING_USER_TOKEN: 'jwt-5678', PATH: '/bin', APIWB_SECRET_EMPTY_X: '' };
    const store = new EnvironmentSecretStore(env);
    assert.equal(await store.get('engagement.password'), 'pw-1234');
    assert.equal(await store.get('fundraising-user.token'), 'jwt-5678');
    assert.equal(await store.get('empty.x'), undefined);
    await store.set('engagement.access_token', 'tok');
    assert.equal(await store.get('engagement.access_token'), 'tok');
    assert.equal(env.APIWB_SECRET_ENGAGEMENT_PASSWORD, 'pw-1234', 'the environment is never written');
    await store.delete('engagement.password');
    assert.equal(await store.get('engagement.password'), undefined);
    assert.deepEqual(secretValuesFromEnvironment(env).sort(), ['jwt-5678', 'pw-1234']);
  });

  void it('writes rows as NDJSON, CSV (the export module\'s: quoted, nested values as JSON, later keys in _extra) and JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-rows-'));
    try {
      const rows = [{ id: 1, name: 'a, "b"', tags: ['x'] }, { id: 2, name: 'line\nbreak', tags: [] }];
      const later = { id: 3, extra: true };
      for (const format of ['ndjson', 'csv', 'json'] as const) {
        const sink = await openOutputSink(join(dir, `r.${format}`), format, () => []);
        await sink.writePage(rows.slice(0, 1));
        await sink.writePage([]);
        await sink.writePage(rows.slice(1));
        await sink.writePage([later]);
        await sink.close();
      }
      assert.deepEqual(readFileSync(join(dir, 'r.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), [...rows, later]);
      assert.equal(readFileSync(join(dir, 'r.csv'), 'utf8'),
        'id,name,tags,_extra\r\n1,"a, ""b""","[""x""]",\r\n2,"line\nbreak",[],\r\n3,,,"{""extra"":true}"\r\n');
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')), [...rows, later]);
      const empty = await openOutputSink(join(dir, 'e.json'), 'json', () => []);
      await empty.close();
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'e.json'), 'utf8')), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('scrubs secret values and secret-named fields from rows, and leaves clean pages as they are', async () => {
    const clean = [{ id: 1, nested: { list: ['a'] } }];
    const redactor = new Redactor(['s3cr3t-value']);
    assert.equal(redactor.row(clean[0]), clean[0], 'no copy when nothing is secret');
    assert.deepEqual([{ note: 'key s3cr3t-value here', access_token: 'abc', deep: [{ Password: 'pw' }] }, 'plain'].map((row) => redactor.row(row)),
      [{ note: 'key *** here', access_token: '***', deep: [{ Password: '***' }] }, 'plain']);
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-scrub-'));
    try {
      const learnt: string[] = [];
      const sink = await openOutputSink(join(dir, 's.ndjson'), 'ndjson', () => learnt);
      learnt.push('token-learnt-later');
      await sink.writePage([{ echo: 'token-learnt-later' }]);
      // A value learnt after pages were written counts from the next page on.
      await sink.writePage([{ echo: 'second-token-later' }]);
      learnt.push('second-token-later');
      await sink.writePage([{ echo: 'second-token-later', again: 'token-learnt-later' }]);
      await sink.close();
      assert.equal(readFileSync(join(dir, 's.ndjson'), 'utf8'), '{"echo":"***"}\n{"echo":"second-token-later"}\n{"echo":"***","again":"***"}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('counts rows of collections, not of error lists', () => {
    assert.equal(countRows('[1,2,3]'), 3);
    assert.equal(countRows('{"count":2,"value":[{},{}],"next_link":null}'), 2);
    assert.equal(countRows('{"ID":5,"Errors":[],"ResponseStatus":true}'), undefined);
    assert.equal(countRows('{"ResponseStatus":false,"Errors":[{"Code":1,"Message":"x"}]}'), undefined, 'a business-error list is not rows');
    assert.equal(countRows('not json'), undefined);
  });

  void it('formats one line per request and the totals', () => {
    const line = formatOutcome({ file: 'a.http', line: 1, label: 'q', method: 'GET', url: 'http://h/x', status: 200, totalMs: 12.4, rows: 1, pages: 3, businessFailures: ['code 3 x'], ok: false }, false);
    assert.equal(line, '✗ q  GET http://h/x  200  12 ms  1 row  3 pages  business failure: code 3 x');
    assert.equal(formatOutcome({ file: 'a.http', line: 1, label: 'q', method: 'GET', url: 'u', businessFailures: [], problem: 'why', ok: false }, false), '✗ q  GET u  — why');
    assert.match(formatOutcome({ file: 'a.http', line: 1, label: 'q', method: 'GET', url: 'u', status: 200, businessFailures: [], ok: true }, true), /\u001b\[32m✓/);
    assert.equal(formatTotals([{ file: 'a.http', line: 1, label: 'a', method: 'GET', url: 'u', rows: 2, businessFailures: [], ok: true }], 5), '1 request, 0 failed, 2 rows, 5 ms');
  });
});
