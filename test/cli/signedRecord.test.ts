// Nothing a run reads back is obeyed beyond what produced it. The checks on a resume record (its walk's
// place and block, the requests it says were finished, counts the --out file holds) cannot see a count the
// file cannot contradict: a record forged to say the cut walk was FINISHED with 0 rows, naming the later walk
// of the same text, passed them all, and --resume skipped the cut walk and exited 0. The rule
// (src/cli/resumeFile.ts, src/core/files/userKey.ts): a record is signed over its exact text with this user's
// key, kept in the per-user config folder; --resume refuses (exit 2, nothing sent, --out untouched) a record
// whose signature is missing or is not that key's for records (another user's key, the code cache's
// signature), and takes none when there is no key, which the walk writing the record says too (and its
// end-of-run line offers no --resume then: resumeWordsKeyless.test.ts).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { blockHash, ORDERS_FILE, startOrdersServer, type Completed, type OrdersServer } from './ordersWalks';
import { runInProcess } from './inProcess';
import { signedRecord, writeSignedRecord } from './signedRecord';
import { resumeKey } from '../../src/cli/resumeFile';
import { signFor } from '../../src/core/files/userKey';

interface Saved { requestIndex: number; where: string; fingerprint: string; completed: Completed[]; signature?: string }

/** The record of the first walk (cut at its page 2) forged to say that walk and the POST were finished with 0 rows, and the cut was in the second walk. */
function forged(record: Saved): Saved {
  const at = (line: number, index: number): Completed => ({ file: (record as unknown as { file: string }).file, where: record.where.replace(/:\d+$/, `:${line}`), requestIndex: index, fingerprint: blockHash(index), rows: 0, ok: true });
  return { ...record, requestIndex: 2, where: record.where.replace(/:2$/, ':9'), fingerprint: blockHash(2), completed: [at(2, 0), at(5, 1)] };
}

void describe('a resume record is obeyed only as signed by this user\'s apiwb', () => {
  let orders: OrdersServer;
  before(async () => { orders = await startOrdersServer('apiwb-signed-record-'); });
  after(async () => { await orders.server.close(); });

  /** The first walk cut at its page 2: its args, --out, the record's path and text, and the file as the cut left it. */
  async function cut(name: string) {
    const file = join(orders.server.dir, `${name}.http`);
    writeFileSync(file, ORDERS_FILE);
    const out = join(orders.server.dir, `${name}.ndjson`);
    const args = [file, '--env', 'local', '--env-file', orders.server.envFile, '--all-pages', '--out', out];
    orders.gets = 0;
    orders.failGet = 2;
    const first = await runInProcess(args);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    orders.failGet = 0;
    const recordPath = `${out}.apiwb-resume.json`;
    return { args, out, recordPath, text: readFileSync(recordPath, 'utf8'), kept: readFileSync(out, 'utf8'), stdout: first.stdout, stderr: first.stderr };
  }

  /** --resume with the record's file text `text`: refused in words, nothing sent, --out as it was. */
  async function refused(c: Awaited<ReturnType<typeof cut>>, text: string, words: RegExp): Promise<void> {
    writeFileSync(c.recordPath, text, { mode: 0o600 });
    orders.seen.length = 0;
    const resumed = await runInProcess([...c.args, '--resume']);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, words, resumed.stderr);
    assert.deepEqual(orders.seen, [], 'nothing is sent for a record refused');
    assert.equal(readFileSync(c.out, 'utf8'), c.kept, '--out is left as the cut left it');
  }

  const notSigned = /--resume: .*apiwb-resume\.json is not taken: it is not signed with this user's key, so it was changed since apiwb wrote it, or written by another user or another copy of apiwb\. Nothing was sent; run again without --resume/;

  void it('the record as written is signed, and resumes (exit 0, every row once)', async () => {
    const c = await cut('honest');
    assert.match(c.text, /,"signature":"[A-Za-z0-9+/]{43}="\}\n$/, c.text);
    const resumed = await runInProcess([...c.args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(readFileSync(c.out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id), ['p1', 'p2', 'p3', 'new', 'p1', 'p2', 'p3']);
  });

  void it('forged to say the cut walk finished with 0 rows, not signed again: refused at its signature', async () => {
    const c = await cut('forged');
    const record = JSON.parse(c.text) as Saved;
    const edited = forged(record);
    // The forgery kept the old signature: the text it covers is not this one.
    await refused(c, `${JSON.stringify(edited)}\n`, notSigned);
    const { signature: _, ...unsigned } = edited;
    await refused(c, `${JSON.stringify(unsigned)}\n`, notSigned);
  });

  void it('an edit signed with this user\'s key still meets the checks behind the signature', async () => {
    const c = await cut('deeper');
    const edited = forged(JSON.parse(c.text) as Saved);
    edited.completed[0]!.rows = 5;
    await refused(c, signedRecord(edited), /is not taken: it counts 1 rows kept by its walk and 5 by the requests finished before it, but the first \d+ bytes of .* hold 1/);
  });

  void it('a record untouched but for one byte, or without its signature, is refused', async () => {
    const c = await cut('byte');
    await refused(c, c.text.replace('"version":1', '"version":1 '), notSigned);
    await refused(c, c.text.replace(/,"signature":"[^"]*"\}\n$/, '}\n'), notSigned);
  });

  void it('a record signed with another user\'s key (copied from their machine) is refused', async () => {
    const c = await cut('copied');
    const other = randomBytes(32);
    await refused(c, signedRecord(JSON.parse(c.text) as object, other), notSigned);
    await refused(c, signedRecord(forged(JSON.parse(c.text) as Saved), other), notSigned);
  });

  void it('a signature this user\'s key made for the code cache never passes for a record\'s', async () => {
    const c = await cut('purpose');
    const key = resumeKey();
    assert.ok(key.ok);
    const { signature: _, ...fields } = JSON.parse(c.text) as Saved;
    const body = JSON.stringify(fields);
    await refused(c, `${body.slice(0, -1)},"signature":"${signFor(key.key, 'apiwb code cache v1', Buffer.from(body, 'utf8')).toString('base64')}"}\n`, notSigned);
    // The same text signed for records is taken (the refusal above is the purpose's).
    writeSignedRecord(c.recordPath, fields);
    const resumed = await runInProcess([...c.args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  });

  void it('without a key of this user\'s alone no record is taken, and the walk writing it says so', async () => {
    const own = process.env.XDG_CONFIG_HOME;
    const loose = mkdtempSync(join(tmpdir(), 'apiwb-loose-config-'));
    try {
      process.env.XDG_CONFIG_HOME = loose;
      assert.ok(resumeKey().ok, 'a key is made there');
      chmodSync(join(loose, 'apiwb', 'code-cache.key'), 0o666);
      const c = await cut('keyless');
      assert.match(c.stderr, /the checkpoint beside .*keyless\.ndjson is not signed: apiwb has no signing key of this user's \(.*code-cache\.key is not taken: others than its owner may write it\), so a --resume will not take it; the rows written to .*keyless\.ndjson stand/, c.stderr);
      assert.equal(c.kept.trim().split('\n').length, 5, 'the run\'s rows stand (the cut walk\'s page 1, the POST, the second walk)');
      assert.doesNotMatch(c.stdout, /--resume/, 'no --resume is offered that would be refused');
      assert.match(c.stdout, /it cannot be resumed: apiwb has no signing key of this user's to sign a checkpoint with \(.*\); to start the walk over: apiwb run /, c.stdout);
      await refused(c, c.text, /is not taken: apiwb has no signing key of this user's to check it with \(.*others than its owner may write it\)\. Nothing was sent/);
    } finally {
      process.env.XDG_CONFIG_HOME = own;
    }
  });
});
