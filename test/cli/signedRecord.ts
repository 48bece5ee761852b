// Test helper: every CLI run of a test process (in process, or a child inheriting its environment) keeps
// its signing key in a config folder of the test's own (XDG_CONFIG_HOME), never the user's; and a resume
// record a test edits to reach the checks behind the signature is signed again with that key, as apiwb
// would have written it (a record edited without this is refused at its signature: signedRecord.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeKey, signedRecordText } from '../../src/cli/resumeFile';

process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'apiwb-test-config-'));

/** The record's file text for `record` (its parsed JSON; a `signature` field in it is dropped), signed with this test run's key, or with `key`. */
export function signedRecord(record: object, key?: Buffer): string {
  const { signature: _, ...fields } = record as { signature?: unknown };
  const own = resumeKey();
  if (!key && !own.ok) throw new Error(`no test key: ${own.reason}`);
  return signedRecordText(JSON.stringify(fields), key ?? (own.ok ? own.key : undefined));
}

/** Writes `record` to `path` as apiwb writes a record (0600), signed with this test run's key (or `key`). */
export function writeSignedRecord(path: string, record: object, key?: Buffer): void {
  writeFileSync(path, signedRecord(record, key), { mode: 0o600 });
}
