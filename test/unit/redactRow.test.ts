// Redaction of free text that carries URLs and key=value pairs (HttpFault messages, log lines), and of
// result rows (Redactor.row) before the extension shows or writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpFault } from '../../src/core/http/types';
import { Redactor, isSecretName } from '../../src/core/secrets/index';
import { REDACTED } from '../../src/core/secrets/redact';

const KEY = 'sk_961d8d1fda54eb8f1cdef8236bdb91cb';

void describe('redaction of text and URLs', () => {
  void it('masks the password of URL userinfo in free text, keeping the user name', () => {
    const r = new Redactor();
    assert.equal(r.text('GET https://perm:key-123@host.test/orders failed'), `GET https://perm:${REDACTED}@host.test/orders failed`);
    assert.equal(r.text('see http://a:b@h and ftp://x:yz@h2/p'), `see http://a:${REDACTED}@h and ftp://x:${REDACTED}@h2/p`);
    assert.equal(r.text('mailto:someone@example.test at 10:30@home'), 'mailto:someone@example.test at 10:30@home', 'no scheme://, no userinfo');
  });

  void it('masks key=value for every secret field name, the same names isSecretName knows', () => {
    const r = new Redactor();
    for (const name of ['token', 'secret', 'apikey', 'api_key', 'servicekey', 'service_key', 'x-api-key', 'access_token', 'password', 'client_secret', 'refresh_token', 'id_token']) {
      assert.ok(isSecretName(name), name);
      assert.equal(r.text(`GET /x?${name}=v4lue&page=2`), `GET /x?${name}=${REDACTED}&page=2`, name);
      assert.equal(r.text(`${name.toUpperCase()}=v4lue`), `${name.toUpperCase()}=${REDACTED}`, `${name} in any case`);
    }
    assert.equal(r.text('GET /x?page_token=abc&token_count=2&next_token=z&token_url=u'), 'GET /x?page_token=abc&token_count=2&next_token=z&token_url=u', 'names about a secret (a cursor, a count, a URL) are not secrets');
    assert.equal(r.text('aws_secret_access_key=AKIA1234&db_password=pw99&X-Auth-Token=t0k3n'), `aws_secret_access_key=${REDACTED}&db_password=${REDACTED}&X-Auth-Token=${REDACTED}`, 'names holding a secret word are');
  });

  void it('an HttpFault message carrying a URL with secrets is clean once redacted', () => {
    const url = `https://perm:${KEY}@host.test/a?api_key=zz9&token=t0k&page=1`;
    const fault = new HttpFault('connection', `GET ${url}: connection refused`, { method: 'GET', url });
    const shown = new Redactor().text(fault.message);
    assert.doesNotMatch(shown, new RegExp(`${KEY}|zz9|t0k`));
    assert.equal(shown, `GET https://perm:${REDACTED}@host.test/a?api_key=${REDACTED}&token=${REDACTED}&page=1: connection refused`);
  });

  void it('url() masks userinfo and every secret query parameter, parseable or not', () => {
    const r = new Redactor();
    assert.equal(r.url('https://perm:key@host.test/a?servicekey=s1&x-api-key=k1&Token=t1&page=1'), `https://perm:${REDACTED}@host.test/a?servicekey=${REDACTED}&x-api-key=${REDACTED}&Token=${REDACTED}&page=1`);
    assert.equal(r.url('{{host}}/a?secret=s1 https://u:p4@h/'), `{{host}}/a?secret=${REDACTED} https://u:${REDACTED}@h/`);
  });
});

void describe('Redactor.row', () => {
  void it('masks secret-named fields at any depth and known secrets inside strings, without touching the input', () => {
    const r = new Redactor([KEY]);
    const row = { id: 7, Password: 'pw-1', nested: [{ access_token: 'tok', token_type: 'bearer' }, `key ${KEY}`], empty: { secret: '' }, none: { token: null } };
    const before = structuredClone(row);
    assert.deepEqual(r.row(row), { id: 7, Password: REDACTED, nested: [{ access_token: REDACTED, token_type: 'bearer' }, `key ${REDACTED}`], empty: { secret: '' }, none: { token: null } });
    assert.deepEqual(row, before, 'the input row is not modified');
    assert.equal(r.row(`a ${KEY}`), `a ${REDACTED}`, 'a bare string');
    assert.equal(r.row(42), 42);
    assert.equal(r.row(null), null);
    assert.deepEqual(r.row({ token: { value: 'x' } }), { token: REDACTED }, 'a secret field holding an object is masked whole');
  });

  void it('returns the row itself when nothing needs redacting (no copy for a clean page)', () => {
    const row = { id: 1, name: 'Ann', tags: ['a', 'b'], address: { city: 'Oslo' } };
    assert.equal(new Redactor().row(row), row);
    assert.equal(new Redactor([KEY]).row(row), row);
    const partly = { clean: { a: 1 }, dirty: { password: 'x' } };
    const out = r2(partly);
    assert.equal(out.clean, partly.clean, 'clean parts are shared');
    assert.notEqual(out.dirty, partly.dirty);
  });

  void it('keeps a JSON "__proto__" key an own property', () => {
    const row = JSON.parse('{"__proto__": {"password": "x"}, "a": 1}') as unknown;
    const out = new Redactor().row(row) as Record<string, unknown>;
    assert.ok(Object.hasOwn(out, '__proto__'));
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(JSON.stringify(out), '{"__proto__":{"password":"***"},"a":1}');
  });
});

function r2(row: { clean: object; dirty: object }): { clean: object; dirty: object } {
  return new Redactor().row(row) as { clean: object; dirty: object };
}

void describe('a hostile row', () => {
  void it('a 100 000-deep row is refused in words, not with a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    assert.throws(() => new Redactor(['s3cr3t-value']).row(deep), /^Error: a result row nests arrays and objects deeper than 512 levels, more than API Workbench reads$/);
  });
});

void it('Redactor.value (the panel, per string) masks what text() of the whole body and the secret keys did', async () => {
  const { redactParsedBody } = await import('../../src/core/results/redaction');
  const redactor = new Redactor(['s3cr3t-value-42']);
  const bodies = [
    { Data: [{ id: 1, note: 'Bearer abcdefgh123', link: 'https://u:pw1234@h/x', q: 'a=1&token=zzz9', password: 'x', s: 'has s3cr3t-value-42 inside' }] },
    [{ api_key: 'k', nested: { deeper: ['Basic QWxhZGRpbjpvcGVu', { sessionId: 's' }] } }, 'plain', 7, null],
    { 's3cr3t-value-42': 1, ok: 'nothing to see' },
  ];
  for (const body of bodies) {
    const text = JSON.stringify(body);
    const before = redactParsedBody(JSON.parse(redactor.text(text)));
    assert.deepEqual(redactor.value(JSON.parse(text)), before, text);
  }
  const untouched = { a: 'plain', b: [1, { c: 'd' }] };
  assert.equal(redactor.value(untouched), untouched, 'nothing to mask: the same value, no copy');
});
