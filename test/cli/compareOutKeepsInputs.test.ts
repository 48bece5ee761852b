// No output overwrites a file the run reads, and a failed run loses nothing: `apiwb compare --out F`
// opens F only once every file its requests read is registered (a `< ./body.json` body, a multipart
// `< ./part.txt` part, the `.env.<environment>` of `{{$dotenv}}`: checkPlan, filesReadBy), so naming one
// of them is refused (exit 2) with the file as it was — it was emptied before the refusal. And F is opened
// as `apiwb run` opens its --out (AppendOnlyFile: the old file aside until a difference is written, put
// back when the comparison stops first): a compare that stops on an input error before sending anything
// leaves yesterday's diffs file as it was (it was emptied).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const FILES: Readonly<Record<string, string>> = {
  'body.http': 'POST {{base}}/x\nContent-Type: application/json\n\n< ./body.json\n',
  'part.http': 'POST {{base}}/m\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="f"; filename="p.txt"\n\n< ./part.txt\n--XYZ--\n',
  'dotenv.http': 'GET {{base}}/x?k={{$dotenv K}}\n',
  'undefined.http': 'GET {{base}}/x?k={{undefinedVar}}\n',
  'body.json': '{"a":1}',
  'part.txt': 'part',
  '.env.local': 'K=abcdefgh\n',
};

void describe('apiwb compare --out never harms a file the comparison reads', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-compare-out-inputs-', (_req, res) => { res.setHeader('content-type', 'application/json'); res.end('[{"id":1}]'); });
    writeFileSync(server.envFile, JSON.stringify({ local: { base: server.origin }, other: { base: server.origin } }));
  });
  after(() => server.close());

  async function compare(http: string, out: string): Promise<string> {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(server.dir, name), text);
    const r = await commandInProcess(compareCommand, [join(server.dir, http), '--env', 'local', '--against', 'other', '--out', join(server.dir, out)]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    return r.stderr;
  }

  for (const [http, input] of [['body.http', 'body.json'], ['part.http', 'part.txt'], ['dotenv.http', '.env.local']] as const) {
    void it(`--out naming ${input} (read by the request): refused, and ${input} is as it was`, async () => {
      const stderr = await compare(http, input);
      assert.match(stderr, /an output never overwrites an input/);
      assert.equal(readFileSync(join(server.dir, input), 'utf8'), FILES[input], `${input} was emptied by the refused --out`);
    });
  }

  void it('an input error before anything is sent keeps yesterday\'s --out', async () => {
    const out = join(server.dir, 'diffs.ndjson');
    writeFileSync(out, '{"yesterday":"diffs"}\n');
    const stderr = await compare('undefined.http', 'diffs.ndjson');
    assert.match(stderr, /undefinedVar/);
    assert.equal(readFileSync(out, 'utf8'), '{"yesterday":"diffs"}\n', 'yesterday\'s diffs were emptied by a compare that sent nothing');
  });
});
