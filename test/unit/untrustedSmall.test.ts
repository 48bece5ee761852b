// Issue 29 item 7, the smaller holes, each where its rule lives: a chain of Content-Encoding codings is
// capped at 5 (curl's limit) over loopback; a header value with CR/LF is an input fault, said as one,
// and nothing reaches the server; the drift check finds undocumented fields named __proto__, constructor
// and toString; completion and hover answer (nothing) on a body thousands of brackets deep instead of
// throwing; a nonsensical expires_in (0, negative, 1e308) is clamped with a warning, and an `apiwb run`
// whose token endpoint says expires_in 0 signs in once for the whole run.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { checkContract } from '../../src/core/contract/drift';
import { sendRequest } from '../../src/core/http/client';
import { HttpFault } from '../../src/core/http/types';
import { lifetimeOf, requestPasswordGrant, TOKEN_LIFETIME_BOUNDS } from '../../src/core/auth/passwordGrant';
import { completions, hoverText, survey } from './languageServiceFixture';
import { startLocalServer } from '../cli/localServer';
import { runInProcess } from '../cli/inProcess';

const ROWS = JSON.stringify([{ id: 1 }, { id: 2 }]);
let server: Server;
let base = '';
const seen: IncomingMessage[] = [];
let expiresIn: unknown = 0;

/** The body gzipped `n` times, Content-Encoding listing gzip n times. */
function gzipped(n: number): Buffer {
  let body = Buffer.from(ROWS);
  for (let i = 0; i < n; i++) body = gzipSync(body);
  return body;
}

before(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'tok-untrusted-small-1234567890', token_type: 'bearer', expires_in: expiresIn }));
      return;
    }
    const n = Number(url.searchParams.get('codings') ?? 0);
    res.writeHead(200, { 'Content-Type': 'application/json', ...(n ? { 'Content-Encoding': Array.from({ length: n }, () => 'gzip').join(', ') } : {}) });
    res.end(n ? gzipped(Math.min(n, 7)) : ROWS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

void describe('Content-Encoding: at most 5 codings are decoded', () => {
  void it('5 codings read decoded; 6 and 2 000 refused in words, no decoder chain built', async () => {
    const five = await sendRequest({ method: 'GET', url: `${base}/rows?codings=5`, headers: {} });
    assert.equal(five.bodyText, ROWS);
    for (const n of [6, 2000]) {
      await assert.rejects(sendRequest({ method: 'GET', url: `${base}/rows?codings=${n}`, headers: {} }), (error: unknown) => {
        assert.ok(error instanceof HttpFault);
        assert.equal(error.kind, 'undecodable');
        assert.match(error.message, new RegExp(`compressed ${n} times over .* at most 5 are decoded`));
        return true;
      });
    }
  });
});

void describe('a header value with CR/LF is an input fault', () => {
  void it('refused before anything is sent, in words that blame the request, not the connection', async () => {
    const before = seen.length;
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\rb']) {
      await assert.rejects(sendRequest({ method: 'GET', url: `${base}/rows`, headers: { 'X-Note': value } }), (error: unknown) => {
        assert.ok(error instanceof HttpFault);
        assert.equal(error.kind, 'invalid-request');
        assert.match(error.message, /not sent: the value of header X-Note holds a line break .* a fault in the request as written/);
        assert.doesNotMatch(error.message, /could not connect/);
        return true;
      });
    }
    await assert.rejects(sendRequest({ method: 'GET', url: `${base}/rows`, headers: { 'Bad Name': 'x' } }), /the header name 'Bad Name' is not a valid header name/);
    assert.equal(seen.length, before, 'the server received nothing');
  });
});

void describe('contract drift: own properties only', () => {
  void it('fields named __proto__, constructor and toString are undocumented, as any other', () => {
    const op = createCatalog().operationById('engagement/SurveyApi/AddChoiceQuestion')!;
    const body = JSON.parse('{"ID": 7, "Errors": [], "ResponseStatus": true, "__proto__": {"x": 1}, "constructor": 1, "toString": "x", "hasOwnProperty": 2}') as unknown;
    const report = checkContract(op, { status: 200, headers: {}, body });
    assert.deepEqual(report.findings.map((f) => [f.kind, f.path]).sort(), [
      ['undocumented-field', '$.__proto__'], ['undocumented-field', '$.constructor'], ['undocumented-field', '$.hasOwnProperty'], ['undocumented-field', '$.toString'],
    ].sort());
  });
});

void describe('completion and hover on a body nested past the depth limit', () => {
  const deep = (n: number, inner: string): string => '{"a":'.repeat(n) + inner + '}'.repeat(n);
  void it('answer nothing (no throw) at 5 000 levels, closed or not; still answer at a normal depth', () => {
    assert.deepEqual(completions(survey('AddChoiceQuestion', deep(5000, '{"|"}'))), []);
    assert.deepEqual(completions(survey('AddChoiceQuestion', '['.repeat(5000) + '{"|')), []);
    assert.equal(hoverText(survey('AddChoiceQuestion', deep(5000, '{"Question|Type": 1}'))), '');
    assert.equal(hoverText(survey('AddChoiceQuestion', '{"a":'.repeat(5000) + '{"Question|Type": 1')), '');
    assert.match(hoverText(survey('AddChoiceQuestion', '{"Question|Type": 1}')), /QuestionType/);
  });
});

void describe('expires_in that makes no sense', () => {
  void it('0, negative and 1e308 are clamped with a warning; a sensible value is kept as given', () => {
    const { min, max, fallback } = TOKEN_LIFETIME_BOUNDS;
    assert.deepEqual(lifetimeOf(3600), { seconds: 3600 });
    assert.deepEqual(lifetimeOf(min), { seconds: min });
    assert.deepEqual(lifetimeOf(max), { seconds: max });
    for (const [given, seconds] of [[0, fallback], [-5, fallback], [min - 0.5, fallback], [Number.NaN, fallback], [1e308, max], [max + 1, max]] as const) {
      const lifetime = lifetimeOf(given);
      assert.equal(lifetime.seconds, seconds, String(given));
      assert.match(lifetime.warning ?? '', new RegExp(`expires_in ${String(given).replace('+', '\\+')}, which is no usable lifetime; the token is used for ${seconds} s`));
    }
  });

  void it('a grant over loopback with expires_in 1e308 ends within a year, never at Infinity', async () => {
    expiresIn = 1e308;
    const grant = await requestPasswordGrant((r) => sendRequest(r), { tokenUrl: `${base}/token`, username: 'u', password: 'p' }, () => 1_000);
    assert.equal(grant.expiresAt, 1_000 + TOKEN_LIFETIME_BOUNDS.max * 1000);
    assert.ok(grant.lifetimeWarning);
  });

  void it('apiwb run: expires_in 0 means one sign-in for the run (not one a request), and a warning', async () => {
    expiresIn = 0;
    const local = await startLocalServer('apiwb-expires-', () => undefined);
    try {
      writeFileSync(local.envFile, JSON.stringify({ local: { base, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{base}}/token', Username: 'u' } } } } }));
      const file = join(local.dir, 'three.http');
      writeFileSync(file, [1, 2, 3].map((i) => `### ${i}\n# @name r${i}\nGET {{base}}/rows?i=${i}\nAuthorization: Bearer {{$auth.token("svc")}}\n`).join('\n'));
      const before = seen.length;
      const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile], { APIWB_SECRET_SVC_PASSWORD: 'pw-untrusted-small' });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const paths = seen.slice(before).map((q) => new URL(q.url ?? '/', 'http://x').pathname);
      assert.deepEqual(paths, ['/token', '/rows', '/rows', '/rows'], 'one sign-in, three requests');
      assert.match(r.stderr, /warning: svc: the token endpoint gave expires_in 0, which is no usable lifetime/);
    } finally {
      await local.close();
    }
  });
});
