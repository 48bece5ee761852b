// The check before sending (runPlan.ts: checkBeforeSending) says a request's problem in words; the command
// decides what it means: `apiwb run` sets that request aside as not run (exit 1, the others run), `apiwb
// compare` stops before anything is sent (exit 2). Either way the file and line are said once.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { checkBeforeSending, planRequests } from '../../src/cli/runPlan';
import { createCatalog } from '../../src/core/catalog';
import { RunFiles } from '../../src/core/files/outputs';
import { commandInProcess, runInProcess } from './inProcess';

// Port 9 (discard) on loopback: nothing here is meant to be sent.
const ENV = { dev: { base: 'http://127.0.0.1:9' }, other: { base: 'http://127.0.0.1:9' } };

void describe('a request that cannot be sent', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-checks-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(ENV));
    writeFileSync(join(dir, 'template.json'), '{"who": "{{who}}"}');
    file = join(dir, 'checks.http');
    writeFileSync(file, [
      '### typo', 'GET {{bsae}}/x', '',
      '### missing body', 'POST {{base}}/y', 'Content-Type: application/json', '', '< ./missing.json', '',
      '### walk', '# @paging sideways', 'GET {{base}}/z', '',
      '### template', 'POST {{base}}/t', 'Content-Type: application/json', '', '<@ ./template.json', '',
    ].join('\n'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('is its own problem in words, without its file and line; a <@ body gives the names it reads', () => {
    const plan = planRequests([file], undefined).requests;
    const environment = { name: 'dev', variables: ENV.dev, auth: {} };
    const checks = plan.map((item) => checkBeforeSending(item, environment, true, createCatalog(), new Map(), new Map(), new RunFiles([])));
    assert.match(checks[0]?.problem ?? '', /^\{\{bsae\}\}: The variable 'bsae' is not defined/);
    assert.match(checks[1]?.problem ?? '', /^< \.\/missing\.json: no such file next to \S*checks\.http$/);
    assert.match(checks[2]?.problem ?? '', /^# @paging: /);
    assert.deepEqual(checks[3], { names: ['who'] });
  });

  void it('apiwb run: not run, with its file and line once, and the run exits 1', async () => {
    const result = await runInProcess([file, '--env', 'dev', '--all-pages', '--name', 'typo']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /not run \(API Workbench\) at \S*checks\.http:2: \{\{bsae\}\}: The variable 'bsae' is not defined/);
    assert.doesNotMatch(result.stdout, /checks\.http:\d+: \S*checks\.http/, 'the place is said once');
  });

  void it('apiwb compare: an input error naming its file and line once, exit 2, nothing sent', async () => {
    const result = await commandInProcess(compareCommand, [file, '--env', 'dev', '--against', 'other', '--name', 'typo']);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /checks\.http:2: \{\{bsae\}\}: The variable 'bsae' is not defined/);
    assert.doesNotMatch(result.stderr, /checks\.http:\d+: \S*checks\.http/, 'the place is said once');
  });
});
