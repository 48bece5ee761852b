// Two folders, each with its own http-client.env.json naming its own `production`, run together:
// `apiwb run teamA teamB --env production`. teamB's requests have an env file of their own beside them,
// yet on aa14ca2 they are resolved against teamA's (the first file's) without a word: teamB's DELETE
// goes to teamA's production server. A request must never be sent with another workspace's environment
// of the same name unasked: the run refuses (exit 2, naming both env files), or each file runs with the
// env file nearest to it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

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
      writeFileSync(join(teamA.dir, name, 'http-client.env.json'), JSON.stringify({ production: { base: server.origin } }));
    }
    writeFileSync(join(teamA.dir, 'teamA', 'list.http'), 'GET {{base}}/teamA-list\n');
    writeFileSync(join(teamA.dir, 'teamB', 'cleanup.http'), 'DELETE {{base}}/teamB-cleanup\n');
  });
  after(async () => { await teamA.close(); await teamB.close(); });

  void it("teamB's DELETE is not sent to teamA's production server", async () => {
    const r = await runInProcess([join(teamA.dir, 'teamA'), join(teamA.dir, 'teamB'), '--env', 'production']);
    assert.ok(!seenA.includes('DELETE /teamB-cleanup'),
      `teamA's server received teamB's DELETE (exit ${r.code}); teamB's server saw ${JSON.stringify(seenB)}:\n${r.stdout}${r.stderr}`);
  });
});
