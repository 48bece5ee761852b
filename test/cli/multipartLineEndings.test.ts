// Adversarial review of 240e0e7 (a multipart body's `< ./file` line sends the file, "as REST Client,
// httpYac and the JetBrains HTTP Client send it"). A multipart/form-data body's delimiters and part
// headers end in CRLF (RFC 2046 §5.1.1, RFC 7578); REST Client writes a multipart body's lines with
// '\r\n' whatever the .http file's own line endings (httpRequestParser.getLineEnding). apiwb sends the
// body with the .http file's '\n': a server reading it by the RFC — here Node's own FormData parser
// (undici, `Request.formData()`, as fetch-based servers read uploads) — finds no part at all and the
// upload fails, though apiwb says ✓ with exit 0 for the 200 a lenient server would give.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a multipart body as a server reads it by the RFC', () => {
  let server: LocalServer;
  let parsed: Record<string, string> | string = 'nothing received';

  before(async () => {
    server = await startLocalServer('apiwb-rev-multipart-crlf-', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const request = new Request('http://x/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) });
        request.formData().then(async (form) => {
          const out: Record<string, string> = {};
          for (const [name, value] of form.entries()) out[name] = typeof value === 'string' ? value : await value.text();
          parsed = out;
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        }, (error: unknown) => {
          parsed = `not parsed: ${error instanceof Error ? error.message : String(error)}`;
          res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":"malformed multipart body"}');
        });
      });
    });
    writeFileSync(join(server.dir, 'notes.txt'), 'line one\nline two\n');
    writeFileSync(join(server.dir, 'upload.http'), [
      '# @name upload', 'POST {{base}}/upload', 'Content-Type: multipart/form-data; boundary=XyZ', '',
      '--XyZ', 'Content-Disposition: form-data; name="title"', '', 'hello', '--XyZ',
      'Content-Disposition: form-data; name="file"; filename="notes.txt"', 'Content-Type: text/plain', '', '< ./notes.txt', '--XyZ--', '',
    ].join('\n'));
    writeFileSync(join(server.dir, 'fields.http'), [
      '# @name fields', 'POST {{base}}/fields', 'Content-Type: multipart/form-data; boundary=XyZ', '',
      '--XyZ', 'Content-Disposition: form-data; name="title"', '', 'two', 'lines', '--XyZ--', '',
    ].join('\n'));
  });

  after(async () => { await server.close(); });

  void it('its parts are read: the field and the file', async () => {
    const result = await runInProcess([join(server.dir, 'upload.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(typeof parsed, 'object', `${JSON.stringify(parsed)}; apiwb: exit ${result.code} ${result.stdout}`);
    const form = parsed as Record<string, string>;
    assert.equal(form['title'], 'hello');
    assert.match(form['file'] ?? '', /^line one\r?\nline two/);
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  void it("a file part goes as the file holds it, byte for byte (its own LF line endings)", async () => {
    parsed = 'nothing received';
    await runInProcess([join(server.dir, 'upload.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(parsed, { title: 'hello', file: 'line one\nline two\n' });
  });

  void it('a multipart body without file lines is sent with CRLF too; an inline text part in CRLF, as REST Client', async () => {
    parsed = 'nothing received';
    const result = await runInProcess([join(server.dir, 'fields.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(parsed, { title: 'two\r\nlines' }, result.stdout + result.stderr);
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });
});
