// A page of a paged walk whose body is not JSON is said in the product's words ("the body
// is not valid JSON (malformed JSON at byte N: …)"), as it is for `{"value":[1,2` or `[1]]`, also a small
// streamed page (no content-length) that starts with a "]" (`]`, ` ]`) or is a value followed by more
// (`1]`): the anywhere read holds it and parses it whole, and JSON.parse's SyntaxError is said through
// jsonFault.ts, never in V8's words ("Unexpected token ']' …", "at position 1"). The test's own server,
// 127.0.0.1 port 0.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const BODIES: Readonly<Record<string, { body: string; byte: number }>> = {
  bracket: { body: ']', byte: 0 },
  blankBracket: { body: ' ]', byte: 1 },
  valueThenMore: { body: '1]', byte: 1 },
};

void describe('a streamed page that is not JSON, in the product\'s words', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-notjson-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Written, then ended: chunked, no content-length (the page is streamed).
      res.write(BODIES[req.url!.slice(1)]?.body ?? '{}');
      res.end();
    });
  });
  after(() => server.close());

  for (const [name, { body, byte }] of Object.entries(BODIES)) {
    void it(`${JSON.stringify(body)}: "the body is not valid JSON (malformed JSON at byte ${byte}: …)"`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `# @paging generic next=next_link\nGET {{base}}/${name}\n`);
      const run = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.ok(run.stdout.includes(`the body is not valid JSON (malformed JSON at byte ${byte}: `), run.stdout);
      assert.doesNotMatch(run.stdout, /Unexpected token|is not valid JSON\.|at position \d/, 'V8 JSON.parse words shown');
    });
  }
});
