// sendRequest against a tiny local node:http server (port 0), one test per fault it must name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, constants, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { sendRequest, sendRequestStreaming, closeHttpAgents } from '../../src/core/http/client';
import { HttpFault } from '../../src/core/http/types';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const held: ServerResponse[] = [];

async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

const routes: Record<string, Handler> = {
  '/ok': (req, res) => {
    res.setHeader('X-Pagination-Page', '1');
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null }));
  },
  '/echo': (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => res.end(Buffer.concat(parts)));
  },
  '/drop': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
    res.write('{"Result":[{"a":1},');
    setImmediate(() => res.socket?.destroy());
  },
  '/drop-chunked': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"Result":[{"a":1},');
    setImmediate(() => res.socket?.destroy());
  },
  '/close-before-answer': (req) => req.socket.destroy(),
  '/hang': (_req, res) => held.push(res),
  '/stall-body': (_req, res) => {
    res.writeHead(200, { 'Content-Length': '50' });
    res.write('{"partial":');
    held.push(res);
  },
  '/huge': (_req, res) => res.end(Buffer.alloc(2 * 1024 * 1024, 0x61)),
  '/huge-chunked': (_req, res) => {
    res.writeHead(200);
    const chunk = Buffer.alloc(256 * 1024, 0x62);
    for (let i = 0; i < 8; i++) res.write(chunk);
    res.end();
  },
  '/redirect': (_req, res) => {
    res.writeHead(302, { Location: '/ok' });
    res.end();
  },
  '/redirect-loop': (_req, res) => {
    res.writeHead(302, { Location: '/redirect-loop' });
    res.end();
  },
  // One byte every 40 ms: each gap is short, the whole body never arrives in time.
  '/trickle': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const timer = setInterval(() => {
      if (res.destroyed) clearInterval(timer);
      else res.write(' ');
    }, 40);
    res.on('close', () => clearInterval(timer));
  },
  // Compressed bodies the client never asked for (it sends no Accept-Encoding).
  '/gzip': (_req, res) => compressed(res, 'gzip', gzipSync(ROWS_JSON)),
  '/deflate': (_req, res) => compressed(res, 'deflate', deflateSync(ROWS_JSON)),
  '/br': (_req, res) => compressed(res, 'br', brotliCompressSync(ROWS_JSON)),
  '/gzip-then-br': (_req, res) => compressed(res, 'gzip, br', brotliCompressSync(gzipSync(ROWS_JSON))),
  '/gzip-corrupt': (_req, res) => compressed(res, 'gzip', Buffer.concat([gzipSync(ROWS_JSON).subarray(0, 12), Buffer.from('not gzip at all')])),
  '/gzip-cut-short': (_req, res) => { const whole = gzipSync(ROWS_JSON); compressed(res, 'gzip', whole.subarray(0, whole.length - 8)); },
  '/gzip-bomb': (_req, res) => compressed(res, 'gzip', gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20))),
  '/unknown-coding': (_req, res) => compressed(res, 'zstd', Buffer.from('opaque')),
  // The coding header of a body that is not there.
  '/gzip-no-content': (_req, res) => { res.writeHead(204, { 'Content-Encoding': 'gzip' }); res.end(); },
  '/gzip-not-modified': (_req, res) => { res.writeHead(304, { 'Content-Encoding': 'gzip' }); res.end(); },
  '/br-empty': (_req, res) => compressed(res, 'br', Buffer.alloc(0)),
  '/gzip-empty-chunked': (_req, res) => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }); res.end(); },
  '/gzip-head': (req, res) => (req.method === 'HEAD' ? compressed(res, 'gzip', Buffer.alloc(0), 120) : compressed(res, 'gzip', gzipSync(ROWS_JSON))),
  '/status500': (_req, res) => {
    res.writeHead(500);
    res.end('{"Message":"An error has occurred."}');
  },
};

const ROWS_JSON = JSON.stringify([{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]);

function compressed(res: ServerResponse, coding: string, body: Buffer, length = body.length): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': coding, 'Content-Length': String(length) });
  res.end(body);
}

let server: { url: string; server: Server };
let base = '';

before(async () => {
  server = await serve((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  base = server.url;
});

after(async () => {
  for (const res of held) res.socket?.destroy();
  server.server.closeAllConnections();
  server.server.close();
  await closeHttpAgents();
});

async function fault(promise: Promise<unknown>): Promise<HttpFault> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpFault, `expected an HttpFault, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the request to fail');
}

void test('a 200 resolves with status, lower-cased headers, body text, size and timing', async () => {
  const res = await sendRequest({ method: 'GET', url: `${base}/ok`, headers: { Authorization: 'Bearer t' } });
  assert.equal(res.status, 200);
  assert.equal(res.statusText, 'OK');
  assert.equal(res.headers['x-pagination-page'], '1');
  assert.equal(res.headers['set-cookie'], 'b=2');
  assert.deepEqual(JSON.parse(res.bodyText), { method: 'GET', auth: 'Bearer t' });
  assert.equal(res.sizeBytes, Buffer.byteLength(res.bodyText));
  assert.ok(res.timing.totalMs >= res.timing.firstByteMs);
});

void test('a request body is sent as given', async () => {
  const body = JSON.stringify({ OFFSET: 1, TableName: '' });
  const res = await sendRequest({ method: 'post', url: `${base}/echo`, headers: { 'Content-Type': 'application/json' }, body });
  assert.equal(res.bodyText, body);
});

void test('an HTTP error status resolves (it is not a fault)', async () => {
  const res = await sendRequest({ method: 'GET', url: `${base}/status500`, headers: {} });
  assert.equal(res.status, 500);
  assert.match(res.bodyText, /error has occurred/);
});

void test('a connection dropped in the middle of the body is a "dropped" fault naming method and URL', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/drop`, headers: {} }));
  assert.equal(error.kind, 'dropped');
  assert.match(error.message, new RegExp(`GET ${base}/drop`));
  assert.match(error.message, /middle of the response body/);
});

void test('a chunked body cut short is also "dropped"', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/drop-chunked`, headers: {} }));
  assert.equal(error.kind, 'dropped');
});

void test('a server that closes before answering gives "dropped"', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/close-before-answer`, headers: {} }));
  assert.equal(error.kind, 'dropped');
  assert.match(error.message, /before answering/);
});

void test('a refused connection is a "connection" fault', async () => {
  const closed = await serve((_req, res) => res.end());
  await new Promise<void>((resolve) => closed.server.close(() => resolve()));
  const error = await fault(sendRequest({ method: 'POST', url: `${closed.url}/token`, headers: {} }));
  assert.equal(error.kind, 'connection');
  assert.match(error.message, /POST http:\/\/127\.0\.0\.1:\d+\/token could not connect/);
});

void test('no answer within timeoutMs is a "timeout" fault', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/hang`, headers: {} }, { timeoutMs: 100 }));
  assert.equal(error.kind, 'timeout');
  assert.match(error.message, /GET http:\/\/127\.0\.0\.1:\d+\/hang: no complete response within 100 ms \(no answer had arrived\)/);
});

void test('a compressed body is whole only at its last byte: a tail after the coded data that stalls is a "timeout", one cut short is "dropped"', async () => {
  const coded = deflateSync(JSON.stringify({ items: [{ id: 1 }] }));
  const tail = Buffer.alloc(50, 0x20);
  const tailed = await serve((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'deflate', 'Content-Length': String(coded.length + tail.length) });
    res.write(Buffer.concat([coded, tail.subarray(0, 10)]));
    if (req.url === '/drop-tail') setTimeout(() => res.socket?.destroy(), 20);
    else held.push(res);
  });
  try {
    const stalled = await fault(sendRequest({ method: 'GET', url: `${tailed.url}/stall-tail`, headers: {} }, { timeoutMs: 200 }));
    assert.equal(stalled.kind, 'timeout');
    const dropped = await fault(sendRequest({ method: 'GET', url: `${tailed.url}/drop-tail`, headers: {} }, { timeoutMs: 2000 }));
    assert.equal(dropped.kind, 'dropped');
  } finally {
    tailed.server.closeAllConnections();
    await new Promise<void>((resolve) => tailed.server.close(() => resolve()));
  }
});

void test('a compressed body cut short (gzip, then br) hands on every byte its received part decodes to, then "dropped"', async () => {
  const text = `[${Array.from({ length: 20_000 }, (_, i) => `{"id":${i},"pad":"${'x'.repeat(80)}"}`).join(',')}]`;
  const coded = brotliCompressSync(gzipSync(text));
  const half = coded.subarray(0, Math.floor(coded.length / 2));
  // What the received half decodes to, each coding flushed at the cut.
  const expected = gunzipSync(brotliDecompressSync(half, { finishFlush: constants.BROTLI_OPERATION_FLUSH }), { finishFlush: constants.Z_SYNC_FLUSH });
  assert.ok(expected.length > 0);
  const cut = await serve((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip, br' });
    res.write(half, () => res.socket?.destroy());
  });
  try {
    const streamed = await sendRequestStreaming({ method: 'GET', url: `${cut.url}/cut`, headers: {} }, { timeoutMs: 5000 });
    const chunks: Buffer[] = [];
    const error = await fault(streamed.read((chunk) => { chunks.push(Buffer.from(chunk)); }));
    assert.equal(error.kind, 'dropped');
    assert.equal(Buffer.concat(chunks).toString('utf8'), expected.toString('utf8'));
  } finally {
    cut.server.closeAllConnections();
    await new Promise<void>((resolve) => cut.server.close(() => resolve()));
  }
});

void test('a body that stalls past timeoutMs is a "timeout" fault', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/stall-body`, headers: {} }, { timeoutMs: 150 }));
  assert.equal(error.kind, 'timeout');
  assert.match(error.message, /the body was still arriving/);
});

void test('a trickling body is cut off at the one deadline, though no gap between bytes is long', async () => {
  const streamed = await sendRequestStreaming({ method: 'GET', url: `${base}/trickle`, headers: {} }, { timeoutMs: 300 });
  let bytes = 0;
  const error = await fault((async () => {
    await streamed.read((chunk) => { bytes += chunk.length; });
  })());
  assert.equal(error.kind, 'timeout');
  assert.match(error.message, /no complete response within 300 ms \(the body was still arriving\); the time allowed covers the headers and the whole body/);
  assert.ok(bytes > 0, 'some bytes did arrive before the cut');
});

void test('a body over maxBodyBytes is stopped with "too-large" (declared length)', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/huge`, headers: {} }, { maxBodyBytes: 1024 * 1024 }));
  assert.equal(error.kind, 'too-large');
  assert.match(error.message, /exceeded the 1\.0 MiB limit/);
});

void test('a chunked body over maxBodyBytes is stopped while streaming', async () => {
  const error = await fault(sendRequest({ method: 'GET', url: `${base}/huge-chunked`, headers: {} }, { maxBodyBytes: 600 * 1024 }));
  assert.equal(error.kind, 'too-large');
});

void test('an abort signal cancels a pending request with "aborted"', async () => {
  const controller = new AbortController();
  const pending = sendRequest({ method: 'GET', url: `${base}/hang`, headers: {} }, { signal: controller.signal });
  setImmediate(() => controller.abort());
  const error = await fault(pending);
  assert.equal(error.kind, 'aborted');
  assert.match(error.message, /was cancelled/);
});

void test('an abort signal stops a body that is arriving with "aborted"; one already aborted sends nothing', async () => {
  const controller = new AbortController();
  const streamed = await sendRequestStreaming({ method: 'GET', url: `${base}/trickle`, headers: {} }, { signal: controller.signal, timeoutMs: 10_000 });
  let bytes = 0;
  const error = await fault((async () => {
    await streamed.read((chunk) => {
      bytes += chunk.length;
      controller.abort();
    });
  })());
  assert.equal(error.kind, 'aborted');
  assert.ok(bytes > 0);
  const gone = await fault(sendRequest({ method: 'GET', url: `${base}/hang`, headers: {} }, { signal: AbortSignal.abort() }));
  assert.equal(gone.kind, 'aborted');
});

void test('redirects are followed up to a bound and listed on the response; maxRedirects 0 returns the 3xx', async () => {
  const followed = await sendRequest({ method: 'GET', url: `${base}/redirect`, headers: { Authorization: 'Bearer same-origin' } });
  assert.equal(followed.status, 200);
  assert.deepEqual(followed.redirects, [{ status: 302, from: `${base}/redirect`, to: `${base}/ok`, crossOrigin: false, dropped: [] }]);
  const plain = await sendRequest({ method: 'GET', url: `${base}/redirect`, headers: {} }, { maxRedirects: 0 });
  assert.equal(plain.status, 302);
  const loop = await fault(sendRequest({ method: 'GET', url: `${base}/redirect-loop`, headers: {} }, { maxRedirects: 3 }));
  assert.equal(loop.kind, 'redirect');
  assert.match(loop.message, /more than 3 redirects/);
});

void test('a redirect to another origin carries no credential; the other origin receives none', async () => {
  const seen: Record<string, string | string[] | undefined>[] = [];
  const other = await serve((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"ok":true}');
  });
  const origin = await serve((req, res) => {
    seen.push(req.headers);
    res.writeHead(307, { Location: `${other.url.replace('127.0.0.1', 'localhost')}/landing` });
    res.end();
  });
  try {
    const url = origin.url.replace('http://', 'http://user:pa55@');
    const response = await sendRequest({ method: 'GET', url: `${url}/start`, headers: { Authorization: 'Bearer secret-token', 'X-API-Key': 'tenant-key', Cookie: 's=1', Accept: 'application/json' } });
    assert.equal(response.status, 200);
    assert.deepEqual(response.redirects?.[0]?.dropped, ['header Authorization', 'header X-API-Key', 'header Cookie'], 'the redirect names exactly what it dropped (the user info of the first URL is not in the Location)');
    const landing = seen[1] ?? {};
    assert.equal(landing['authorization'], undefined, 'no Authorization at the other origin');
    assert.equal(landing['x-api-key'], undefined, 'no X-API-Key at the other origin');
    assert.equal(landing['cookie'], undefined, 'no Cookie at the other origin');
    assert.equal(landing['accept'], 'application/json', 'other headers still go');
    assert.doesNotMatch(JSON.stringify(landing), /secret-token|tenant-key|pa55/);
  } finally {
    await new Promise<void>((resolve) => origin.server.close(() => resolve()));
    await new Promise<void>((resolve) => other.server.close(() => resolve()));
  }
});

void test('redirect rules: https → http refused, 303 becomes a GET without body, no body or credential to another origin', async () => {
  const { redirectTarget } = await import('../../src/core/http/client');
  const secure = { method: 'GET', url: 'https://api.example/x', headers: { Authorization: 'Bearer t' } };
  const downgraded = redirectTarget(secure, 302, 'http://api.example/y');
  assert.ok(typeof downgraded === 'string');
  assert.match(downgraded, /from https to plain http .*not followed/);
  const post = { method: 'POST', url: 'https://api.example/x', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' }, body: '{}' };
  const seeOther = redirectTarget(post, 303, '/result');
  assert.ok(typeof seeOther !== 'string');
  assert.deepEqual(seeOther.request, { method: 'GET', url: 'https://api.example/result', headers: { Authorization: 'Bearer t' } });
  const kept = redirectTarget(post, 307, '/again');
  assert.ok(typeof kept !== 'string');
  assert.equal(kept.request.method, 'POST');
  assert.equal(kept.request.body, '{}');
  const carried = redirectTarget(post, 308, 'https://elsewhere.example/x');
  assert.ok(typeof carried === 'string');
  assert.match(carried, /another origin \(https:\/\/elsewhere\.example\) as a POST with a body; not followed/);
  const away = redirectTarget({ method: 'GET', url: 'https://api.example/x', headers: { Authorization: 'Bearer t', Accept: 'application/json' } }, 308, 'https://elsewhere.example/x');
  assert.ok(typeof away !== 'string');
  assert.deepEqual(away.request.headers, { Accept: 'application/json' });
  assert.deepEqual(away.dropped, ['header Authorization']);
  const seeOtherAway = redirectTarget(post, 303, 'https://elsewhere.example/done');
  assert.ok(typeof seeOtherAway !== 'string', 'a 303 elsewhere becomes a GET without the body: followed');
  assert.equal(seeOtherAway.request.body, undefined);
});

void test('the streaming variant yields the body in chunks', async () => {
  const res = await sendRequestStreaming({ method: 'GET', url: `${base}/huge-chunked`, headers: {} });
  let bytes = 0;
  await res.read((chunk) => { bytes += chunk.length; });
  assert.equal(bytes, 8 * 256 * 1024);
});

void test('read waits for the promise a chunk\'s handler returns before the next chunk, and reads once', async () => {
  const res = await sendRequestStreaming({ method: 'GET', url: `${base}/huge-chunked`, headers: {} });
  let waiting = false;
  let chunks = 0;
  let bytes = 0;
  await res.read(async (chunk) => {
    assert.equal(waiting, false, 'no chunk while the one before is being handled');
    waiting = true;
    chunks++;
    bytes += chunk.length;
    await new Promise((resolve) => setTimeout(resolve, 2));
    waiting = false;
  });
  assert.equal(bytes, 8 * 256 * 1024);
  assert.ok(chunks > 1, 'the body came in several chunks');
  await assert.rejects(res.read(() => undefined), /read once/);
});

void test('what a chunk\'s handler throws (or its promise rejects with) ends the read with that error, not a fault', async () => {
  for (const handler of [() => { throw new Error('handler says no'); }, () => Promise.reject(new Error('handler says no'))]) {
    const res = await sendRequestStreaming({ method: 'GET', url: `${base}/huge-chunked`, headers: {} });
    const error = await res.read(handler).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof Error && !(error instanceof HttpFault));
    assert.equal(error.message, 'handler says no');
  }
  // The client goes on: the abandoned bodies left nothing behind.
  assert.equal((await sendRequest({ method: 'GET', url: `${base}/ok`, headers: {} })).status, 200);
});

void test('a connection dropped while a chunk\'s handler still runs: the read says "dropped" only once that handler is done', async () => {
  const res = await sendRequestStreaming({ method: 'GET', url: `${base}/drop`, headers: {} });
  let handling = false;
  let handled = 0;
  const error = await res.read(async () => {
    handling = true;
    // Long enough for the server to cut the connection while this chunk is handled (a batch being written).
    await new Promise((resolve) => setTimeout(resolve, 50));
    handled++;
    handling = false;
  }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof HttpFault, 'the read failed with a fault');
  assert.equal(error.kind, 'dropped');
  assert.equal(handling, false, 'no handler was still running when the read failed (a writer would have gone on after the page failed)');
  assert.equal(handled, 1);
});

void test('a small body whose end is in hand while its last chunk\'s handler fails: the read fails with the handler\'s error', async () => {
  const res = await sendRequestStreaming({ method: 'GET', url: `${base}/ok`, headers: {} });
  const error = await res.read(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    throw new Error('disk full');
  }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof Error, 'the read did not report success');
  assert.equal(error.message, 'disk full');
});

void test('a body read after its deadline passed or its request was aborted: the read says so at once, it does not wait forever', async () => {
  const late = await sendRequestStreaming({ method: 'GET', url: `${base}/stall-body`, headers: {} }, { timeoutMs: 100 });
  await new Promise((resolve) => setTimeout(resolve, 250));
  const timedOut = await late.read(() => undefined).then(() => undefined, (e: unknown) => e);
  assert.ok(timedOut instanceof HttpFault);
  assert.equal(timedOut.kind, 'timeout');

  const controller = new AbortController();
  const aborted = await sendRequestStreaming({ method: 'GET', url: `${base}/stall-body`, headers: {} }, { signal: controller.signal });
  controller.abort();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stopped = await aborted.read(() => undefined).then(() => undefined, (e: unknown) => e);
  assert.ok(stopped instanceof HttpFault);
  assert.equal(stopped.kind, 'aborted');
});

void test('TLS verification is on by default and off only when asked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-tls-'));
  try {
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    } catch (error) {
      // npm test installs openssl first (scripts/ensure-debian-packages.sh): without it this test cannot run, so it fails.
      throw new Error(`openssl could not make a self-signed certificate: ${(error as Error).message}`);
    }
    const tls = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.end('secure'));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
    try {
      const error = await fault(sendRequest({ method: 'GET', url, headers: {} }));
      assert.equal(error.kind, 'tls');
      assert.match(error.message, /issued by an authority that is not trusted here.*--cacert/);
      const res = await sendRequest({ method: 'GET', url, headers: {} }, { rejectUnauthorized: false });
      assert.equal(res.bodyText, 'secure');
    } finally {
      tls.closeAllConnections();
      tls.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a body the server compressed unasked (gzip, deflate, br, gzip then br) is read decoded, whole and streamed', async () => {
  for (const path of ['/gzip', '/deflate', '/br', '/gzip-then-br']) {
    const res = await sendRequest({ method: 'GET', url: `${base}${path}`, headers: {} });
    assert.equal(res.bodyText, ROWS_JSON, path);
    assert.ok(res.headers['content-encoding'], 'the headers stay as the server sent them');
    const streamed = await sendRequestStreaming({ method: 'GET', url: `${base}${path}`, headers: {} });
    const parts: Buffer[] = [];
    await streamed.read((chunk) => { parts.push(chunk); });
    assert.equal(Buffer.concat(parts).toString('utf8'), ROWS_JSON, `${path}, streamed`);
  }
});

void test('a compressed body that does not decode (corrupt, cut short) is an undecodable fault naming the coding', async () => {
  for (const path of ['/gzip-corrupt', '/gzip-cut-short']) {
    const f = await fault(sendRequest({ method: 'GET', url: `${base}${path}`, headers: {} }));
    assert.equal(f.kind, 'undecodable', `${path}: ${f.message}`);
    assert.match(f.message, /compressed \(Content-Encoding: gzip\) but does not decode/);
  }
});

void test('the body-size limit counts decoded bytes: a small gzip body that inflates past it is cut off', async () => {
  const f = await fault(sendRequest({ method: 'GET', url: `${base}/gzip-bomb`, headers: {} }, { maxBodyBytes: 1024 * 1024 }));
  assert.equal(f.kind, 'too-large');
});

void test('a coding the client cannot read is left as it came', async () => {
  const res = await sendRequest({ method: 'GET', url: `${base}/unknown-coding`, headers: {} });
  assert.equal(res.bodyText, 'opaque');
});

void test('a coding header over no body (HEAD, 204, 304, an empty chunked or zero-length body) reads as an empty body, not a decoding fault', async () => {
  for (const [method, path] of [['HEAD', '/gzip-head'], ['GET', '/gzip-no-content'], ['GET', '/gzip-not-modified'], ['GET', '/gzip-empty-chunked'], ['GET', '/br-empty']] as const) {
    const res = await sendRequest({ method, url: `${base}${path}`, headers: {} });
    assert.equal(res.bodyText, '', `${method} ${path}`);
    assert.equal(res.sizeBytes, 0, `${method} ${path}`);
  }
});
