// afterFilesRead: commands get the lazily loaded workbench only once its files (env file, catalog overlays)
// are read. Before, a Send from the palette right after an .http file opened went out with no environment,
// and its Next page was then refused as "paged in environment '(no environment)'" (the flaky panelPaging UI test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterFilesRead, SLOW_READ_MS } from '../../src/extension/afterFilesRead';

/** A workbench as createWorkbench returns it: loaded at once, its env file read later (when `read` is called). */
function loadingWorkbench() {
  let read!: () => void;
  const w = { environment: undefined as string | undefined, filesRead: new Promise<void>((resolve) => { read = resolve; }) };
  return { w, load: () => Promise.resolve(w), read: () => { w.environment = 'sandbox'; read(); } };
}

/** Settles pending promise callbacks (the gate's and the workbench's), whatever their depth. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

void test('a command run while the env file is being read acts once it is read, in its environment', async () => {
  const { load, read } = loadingWorkbench();
  const seen: (string | undefined)[] = [];
  const gated = afterFilesRead(load);
  const command = gated().then((w) => seen.push(w.environment));
  // The premise: the workbench itself is there before its files are read, with no environment yet.
  assert.equal((await load()).environment, undefined);
  await settle();
  assert.deepEqual(seen, [], 'the command did not run before the env file was read');
  read();
  await command;
  assert.deepEqual(seen, ['sandbox']);
});

void test('once the files are read, every later call gets the same workbench without waiting for anything else', async () => {
  const { w, load, read } = loadingWorkbench();
  read();
  const gated = afterFilesRead(load);
  assert.equal(await gated(), w);
  assert.equal(await gated(), w);
});

void test('a workbench that fails to load fails the command (it is not run without it)', async () => {
  const gated = afterFilesRead(() => Promise.reject(new Error('bundle missing')));
  await assert.rejects(gated(), /bundle missing/);
});

void test('a wait longer than SLOW_READ_MS is shown once, until the files are read; a short one is not shown', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const slow = loadingWorkbench();
  const shown: Promise<void>[] = [];
  const gated = afterFilesRead(slow.load, (read) => shown.push(read));
  const first = gated();
  const second = gated();
  await settle();
  t.mock.timers.tick(SLOW_READ_MS - 1);
  assert.equal(shown.length, 0, 'not shown before SLOW_READ_MS');
  t.mock.timers.tick(1);
  assert.equal(shown.length, 1, 'shown once for the two waiting commands');
  assert.equal(shown[0], slow.w.filesRead, 'the progress ends when the files are read');
  slow.read();
  await Promise.all([first, second]);
  await gated();
  t.mock.timers.tick(SLOW_READ_MS * 2);
  assert.equal(shown.length, 1, 'a call after the files are read shows nothing');

  const quick = loadingWorkbench();
  const told: unknown[] = [];
  const gatedQuick = afterFilesRead(quick.load, (read) => told.push(read));
  const command = gatedQuick();
  await settle();
  t.mock.timers.tick(SLOW_READ_MS - 100);
  quick.read();
  await command;
  t.mock.timers.tick(SLOW_READ_MS);
  assert.deepEqual(told, [], 'files read in time: nothing shown');
});
