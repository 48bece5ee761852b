// Two folders, each with its own http-client.env.json naming its own `production`, run together:
// `apiwb run teamA teamB --env production`. Without --env-file a file's env file is the nearest one above
// it, and one run holds one environment (its credentials and APIWB_SECRET_* values belong to it): files
// whose nearest env files differ are refused (exit 2, naming both env files) before anything is sent, so
// teamB's DELETE never reaches teamA's production server. --env-file still names the one env file of all.
// Found by revD (c9be26b): teamB's requests ran against teamA's env file, the first file's, exit 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { commandInProcess, runInProcess } from './inProcess';
import { compareCommand } from '../../src/cli/compare/compareCommand';

void describe("a folder's requests never go to another folder's environment of the same name", () => {
  let teamA: LocalServer;
  let teamB: LocalServer;
  const seenA: string[] = [];
  const seenB: string[] = [];

  before(async () => {
    teamA = await startLocalServer('apiwb-revD-teamA-', (req, res) => { seenA.push(`${req.method ?? ''} ${req.url ?? ''}`); res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    teamB = await startLocalServer('apiwb-revD-teamB-', (req, res) => { seenB.push(`${req.method ?? ''} ${req.url ?? ''}`); res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    for (const [name, server] of [['teamA', teamA], ['teamB', teamB]] as const) {
      mkdirSync(join(teamA.dir, name));
      writeFileSync(join(teamA.dir, name, 'http-client.env.json'), JSON.stringify({ production: { base: server.origin }, staging: { base: server.origin } }));
    }
    writeFileSync(join(teamA.dir, 'teamA', 'list.http'), 'GET {{base}}/teamA-list\n');
    writeFileSync(join(teamA.dir, 'teamB', 'cleanup.http'), 'DELETE {{base}}/teamB-cleanup\n');
    // A folder without an env file of its own: its nearest is the one of the folder above (teamA.dir's `local`).
    mkdirSync(join(teamA.dir, 'shared'));
    writeFileSync(join(teamA.dir, 'shared', 'purge.http'), 'DELETE {{base}}/shared-purge\n');
  });
  after(async () => { await teamA.close(); await teamB.close(); });

  void it("teamB's DELETE is not sent to teamA's production server: the run is refused, naming both env files", async () => {
    seenA.length = 0;
    seenB.length = 0;
    const r = await runInProcess([join(teamA.dir, 'teamA'), join(teamA.dir, 'teamB'), '--env', 'production']);
    assert.ok(!seenA.includes('DELETE /teamB-cleanup'),
      `teamA's server received teamB's DELETE (exit ${r.code}); teamB's server saw ${JSON.stringify(seenB)}:\n${r.stdout}${r.stderr}`);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /teamA[/\\]http-client\.env\.json/, r.stderr);
    assert.match(r.stderr, /teamB[/\\]http-client\.env\.json/, r.stderr);
    assert.match(r.stderr, /Nothing was sent/, r.stderr);
    assert.deepEqual([...seenA, ...seenB], [], 'nothing is sent before the refusal');
  });

  void it('a folder whose nearest env file is one above it (not its own) is not run with teamA\'s either', async () => {
    seenA.length = 0;
    const r = await runInProcess([join(teamA.dir, 'teamA'), join(teamA.dir, 'shared'), '--env', 'production']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /shared[/\\]purge\.http has .*http-client\.env\.json/, r.stderr);
    assert.deepEqual(seenA, [], 'nothing is sent before the refusal');
  });

  void it('apiwb compare refuses the same two folders before sending anything', async () => {
    seenA.length = 0;
    seenB.length = 0;
    const r = await commandInProcess(compareCommand, [join(teamA.dir, 'teamA'), join(teamA.dir, 'teamB'), '--env', 'production', '--against', 'staging']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /teamB[/\\]http-client\.env\.json/, r.stderr);
    assert.deepEqual([...seenA, ...seenB], [], 'nothing is sent before the refusal');
  });

  void it('--env-file names the one env file of every file, as documented', async () => {
    seenA.length = 0;
    seenB.length = 0;
    const r = await runInProcess([join(teamA.dir, 'teamA'), join(teamA.dir, 'teamB'), '--env', 'production', '--env-file', join(teamA.dir, 'teamB', 'http-client.env.json')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(seenB.sort(), ['DELETE /teamB-cleanup', 'GET /teamA-list']);
    assert.deepEqual(seenA, []);
  });

  void it('two files of one folder share its env file and run', async () => {
    writeFileSync(join(teamA.dir, 'teamB', 'more.http'), 'GET {{base}}/teamB-more\n');
    seenB.length = 0;
    const r = await runInProcess([join(teamA.dir, 'teamB'), '--env', 'production']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(seenB.sort(), ['DELETE /teamB-cleanup', 'GET /teamB-more']);
  });
});
