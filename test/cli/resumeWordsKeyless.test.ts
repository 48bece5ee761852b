// The end-of-run words agree with what --resume will take. A checkpoint is signed with this user's key, and
// without one (the key file missing and not makeable, or writable by others) no --resume takes it
// (src/cli/resumeFile.ts). The line that says how a walk cut short continues (src/cli/runResume.ts,
// resumeWords) then offers no --resume: it says the walk cannot be resumed and gives the command that starts
// it over. With a key the --resume command is offered as before.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resumeKey, resumePathFor } from '../../src/cli/resumeFile';
import type { RunOptions } from '../../src/cli/runArguments';
import { resumeRecordOf, resumeWords } from '../../src/cli/runResume';
import type { WalkResult } from '../../src/core/paging/walker';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-resume-words-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const cut = { resumeAt: 3 } as WalkResult;
const out = join(dir, 'rows.ndjson');
const options = (withOut: boolean): RunOptions => ({ ...(withOut ? { out } : {}), argv: ['orders.http', '--all-pages', ...(withOut ? ['--out', out] : []), '--resume'] }) as unknown as RunOptions;
const NO_KEY = 'code-cache.key is not taken: others than its owner may write it';

void describe('the end-of-run words of a walk cut short', () => {
  void it('with a signing key: the --resume command, as before', () => {
    assert.match(resumeWords(cut, options(true), true, undefined), /To continue from page 3, appending to .*rows\.ndjson: apiwb run orders\.http --all-pages --out .*rows\.ndjson --resume$/);
    assert.match(resumeWords(cut, options(false), false, undefined), /run again with --out FILE/);
  });

  void it('without one: no --resume, the walk is started over', () => {
    const owned = resumeWords(cut, options(true), true, NO_KEY);
    assert.doesNotMatch(owned, /--resume|To continue/, owned);
    assert.match(owned, /The rows written to .*rows\.ndjson stand, but it cannot be resumed: apiwb has no signing key of this user's to sign a checkpoint with \(code-cache\.key is not taken: others than its owner may write it\); to start the walk over: apiwb run orders\.http --all-pages --out .*rows\.ndjson$/, owned);
    const none = resumeWords(cut, options(false), false, NO_KEY);
    assert.doesNotMatch(none, /resume, run again|--out FILE|--resume/, none);
    assert.match(none, /It cannot be resumed: apiwb has no signing key of this user's .*; run again to start the walk over\.$/, none);
  });

  void it('without one, --out and its checkpoint left as they were: no --resume of the checkpoint there', () => {
    writeFileSync(out, '{"id":1}\n');
    writeFileSync(resumePathFor(out), '{}\n');
    assert.match(resumeWords(cut, options(true), false, undefined), /to continue the walk they hold: .* --resume$/);
    const left = resumeWords(cut, options(true), false, NO_KEY);
    assert.doesNotMatch(left, /--resume/, left);
    assert.match(left, /left as they were, but it cannot be resumed: apiwb has no signing key of this user's to check a checkpoint with \(.*\); to start the walk over: apiwb run /, left);
  });

  void it('the record keeper says why there is no key, as the warning does', () => {
    const own = process.env.XDG_CONFIG_HOME;
    const loose = join(dir, 'config');
    process.env.XDG_CONFIG_HOME = loose;
    try {
      assert.ok(resumeKey().ok, 'a key is made there');
      assert.equal(resumeRecordOf(out, () => true, () => undefined).keyless(), undefined);
      chmodSync(join(loose, 'apiwb', 'code-cache.key'), 0o666);
      assert.match(resumeRecordOf(out, () => true, () => undefined).keyless() ?? '', /code-cache\.key is not taken: others than its owner may write it/);
    } finally {
      if (own === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = own;
    }
  });
});
