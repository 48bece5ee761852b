// Attack (review of fileSink.ts's aside): the old --out file is moved aside at the first write, then the new
// file is opened. When that open fails (EMFILE at the descriptor limit, ENOSPC with no inode free: faked
// here by failing fs/promises.open for the new file only), the run fails having kept no row: close must put
// the old file back (the CLI then says "left as it was"), and the SIGINT/SIGTERM listeners must be gone.
import assert from 'node:assert/strict';
import { constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type * as Fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AppendOnlyFile } from '../../src/core/export/fileSink';

/** The module object fileSink.ts calls through (its `open` replaced for the fault). */
const fsp = createRequire(__filename)('node:fs/promises') as typeof Fsp;

const OLD = 'old rows: keep me\n';

void test('the new file cannot be opened after the old one moved aside: close puts the old file back, no listener left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-aside-fault-'));
  const path = join(dir, 'rows.ndjson');
  writeFileSync(path, OLD);
  const signals = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
  const realOpen = fsp.open;
  const mutable = fsp as unknown as { open: typeof Fsp.open };
  mutable.open = ((file: Parameters<typeof Fsp.open>[0], flags?: string | number, mode?: number) => {
    if (file === path && typeof flags === 'number' && (flags & constants.O_CREAT) !== 0) {
      return Promise.reject(Object.assign(new Error(`EMFILE: too many open files, open '${path}'`), { code: 'EMFILE', errno: -24, syscall: 'open', path }));
    }
    return realOpen(file, flags, mode);
  }) as typeof Fsp.open;
  let writeError: unknown;
  try {
    const sink = await AppendOnlyFile.open(path, { replaceUnwritten: () => false });
    await sink.append('{"id":1}\n').catch((e: unknown) => { writeError = e; });
    mutable.open = realOpen;
    await sink.close();
    const now = existsSync(path) ? readFileSync(path, 'utf8') : '(none)';
    const listing = readdirSync(dir);
    const listeners = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
    assert.ok(writeError, 'the write failed');
    assert.deepEqual({ now, listing, leftAsItWas: sink.leftAsItWas, listeners }, { now: OLD, listing: ['rows.ndjson'], leftAsItWas: true, listeners: signals });
  } finally {
    mutable.open = realOpen;
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('twenty sinks one after another, each over an old file: no listener left, no MaxListeners warning', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-aside-many-'));
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  const before = process.listenerCount('SIGINT');
  try {
    for (let i = 0; i < 20; i++) {
      const path = join(dir, `rows-${i}.ndjson`);
      writeFileSync(path, OLD);
      const sink = await AppendOnlyFile.open(path, {});
      await sink.append('{"id":1}\n');
      await sink.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual({ listeners: process.listenerCount('SIGINT') - before, warnings }, { listeners: 0, warnings: [] });
  } finally {
    process.off('warning', onWarning);
    rmSync(dir, { recursive: true, force: true });
  }
});
