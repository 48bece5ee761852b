// apiwb compare's outputs never harm its inputs (issue 29's rule, src/core/files/outputs.ts): --out and
// --report that name the .http file, the env file, a compared export, each other, a link or a folder are
// refused with exit 2 before anything is opened or sent, and the input is left byte for byte.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-out-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
// Ports 1 and 2 of loopback: nothing listens there, and nothing may be sent anyway.
const http = file('list.http', '# @name list\nGET {{base}}/bookings\n');
const env = file('http-client.env.json', JSON.stringify({ a: { base: 'http://127.0.0.1:1' }, b: { base: 'http://127.0.0.1:2' } }));
const left = file('left.ndjson', '{"id":1}\n');
const right = file('right.ndjson', '{"id":2}\n');
const target = file('target.ndjson', 'kept\n');
symlinkSync(target, join(dir, 'link.ndjson'));
mkdirSync(join(dir, 'folder'));

const live = ['list.http', '--env', 'a', '--against', 'b', '--env-file', env].map((a) => (a === 'list.http' ? http : a));

void describe('apiwb compare: no output overwrites an input', () => {
  const cases: [string, string[], string, RegExp][] = [
    ['--out naming the .http file', [...live, '--out', http], http, /--out .* is the \.http file .*an input of this run/],
    ['--out naming the env file', [...live, '--out', env], env, /--out .* is the env file .*an input of this run/],
    ['--report naming the env file', [...live, '--reporter', 'json', '--report', env], env, /--report .* is the env file/],
    ['--out naming a compared export', [left, right, '--key', 'id', '--out', right], right, /--out .* is the export compared/],
    ['--out through a link', [left, right, '--key', 'id', '--out', join(dir, 'link.ndjson')], target, /is a symbolic link .*does not write through a link/],
    ['--out naming a folder', [left, right, '--key', 'id', '--out', join(dir, 'folder')], target, /is a folder/],
  ];
  for (const [what, args, input, message] of cases) {
    void it(`${what}: exit 2, said in words, the input left as it was`, async () => {
      const before = readFileSync(input);
      const r = await commandInProcess(compareCommand, args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(readFileSync(input), before);
    });
  }
});
