// src/core/http/undiciCore.ts is undici's request() without undici's index.js: the same requests sent
// through it and through undici's own request() reach a server the same way and fail the same way.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent as IndexAgent, request as indexRequest, type Dispatcher } from 'undici';
import { Agent, request } from '../../src/core/http/undiciCore';

void describe('undici request without its index.js', () => {
  let server: Server;
  let base = '';
  const ours = new Agent();
  const theirs = new IndexAgent();
  before(async () => {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString('utf8') }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all([ours.close(), theirs.close()]);
    server.close();
  });

  const outcome = async (send: () => Promise<Dispatcher.ResponseData<unknown>>): Promise<unknown> => {
    try {
      const response = await send();
      return { status: response.statusCode, echo: JSON.parse(await response.body.text()) as unknown };
    } catch (error) {
      return { error: (error as Error).constructor.name, message: (error as Error).message, code: (error as { code?: string }).code };
    }
  };

  void it('sends what undici\'s request() sends, and refuses what it refuses', async () => {
    const cases: { url: string; method?: Parameters<typeof request>[1]['method']; headers?: Record<string, string>; body?: string }[] = [
      { url: `${base}/plain`, method: 'GET' },
      { url: `${base}/a/b?x=1&y=%20z`, method: 'GET', headers: { Authorization: 'Bearer t', 'X-Api-Key': 'k' } },
      { url: `${base}/post?q`, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' },
      { url: `${base}/frag#part`, method: 'DELETE' },
      { url: `${base}`, method: 'PATCH', body: 'text' },
      { url: `${base}/no-method`, body: 'put by default' },
      { url: `${base}/no-method-no-body` },
      { url: 'ftp://127.0.0.1/file', method: 'GET' },
      { url: 'not a url', method: 'GET' },
      { url: 'http://', method: 'GET' },
      { url: 'HTTP://127.0.0.1:' + base.split(':')[2] + '/Upper/../case?a=%7e', method: 'GET' },
      { url: `${base.replace('http:', 'wss:')}/socket`, method: 'GET' },
      { url: `${base.replace('http://', 'http://user:pw@')}/userinfo`, method: 'GET' },
    ];
    // Twice: the second time the URL's parts are the ones remembered from the first (src/core/http/url.ts).
    for (const c of [...cases, ...cases]) {
      const options = { ...(c.method ? { method: c.method } : {}), headers: { ...c.headers }, ...(c.body !== undefined ? { body: c.body } : {}) };
      // Without a method too (undici then picks one): both are called as undici's request() is, untyped.
      const a = await outcome(() => request(c.url, { ...options, dispatcher: ours } as Parameters<typeof request>[1]));
      const b = await outcome(() => indexRequest(c.url, { ...options, dispatcher: theirs }));
      assert.deepEqual(normalise(a), normalise(b), c.url);
    }
  });
});

/** The echoed headers less the ones that differ between two connections of two agents. */
function normalise(value: unknown): unknown {
  const v = value as { echo?: { headers?: Record<string, string> } };
  if (v.echo?.headers) {
    const { host: _host, ...headers } = v.echo.headers;
    return { ...v, echo: { ...v.echo, headers } };
  }
  return value;
}
