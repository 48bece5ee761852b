// urlParts (src/core/http/url.ts) answers what new URL(url) reads, for any string, asked once or again,
// and so do the functions that read a URL through it (pathOf, withoutSecrets).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { originOf, queryPairs, urlParts, withQueryValue } from '../../src/core/http/url';
import { queryParam, withQueryParam } from '../../src/core/paging/requestEdit';
import { withoutSecrets } from '../../src/core/paging/checkpoint';
import { pathOf } from '../../src/core/http/url';

const HOSTILE = [
  'http://127.0.0.1:8080/a/b?x=1&y=%20z', 'HTTPS://Example.COM:443/Path/../up?Q=1#frag', 'http://user:pa55@host/x?token=abc&api_key=k',
  'http://host/a b?c d', 'http://host/?', 'http://host', 'http://[::1]:3000/v6', 'http://0x7f.1/hex', 'http://host/%2e%2e/dots',
  'http://h\u00f6st.example/\u00e9?\u212Aey=1', 'ftp://files.example/f', 'file:///etc/passwd', 'wss://socket.example/s',
  'not a url', '', '/relative/path', 'http://', 'http://host:99999/', ' http://spaces.example/ ', 'http://host/\t\ttab',
  'javascript:alert(1)', 'http://host/?a=1&a=2&password=x%3D', 'http://host/?%74oken=abc',
];

function expected(url: string): unknown {
  try {
    const u = new URL(url);
    return { href: u.href, protocol: u.protocol, origin: u.origin, username: u.username, password: u.password, pathname: u.pathname, search: u.search };
  } catch {
    return undefined;
  }
}

void test('urlParts reads what new URL reads, or nothing where it throws; asked again, past its bound too', () => {
  for (let round = 0; round < 2; round++) {
    for (const url of HOSTILE) assert.deepEqual(urlParts(url) === undefined ? undefined : { ...urlParts(url) }, expected(url), url);
    // More distinct URLs than the memo keeps: it is emptied, and answers the same after.
    for (let i = 0; i < 1_100; i++) assert.equal(urlParts(`http://host/${i}`)?.pathname, `/${i}`);
  }
  assert.ok(Object.isFrozen(urlParts(HOSTILE[0]!)), 'the remembered parts cannot be changed by a caller');
});

void test('originOf: a URL\'s origin as new URL reads it, the text itself where it throws', () => {
  for (const url of HOSTILE) {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = url;
    }
    assert.equal(originOf(url), origin, url);
  }
});

void test('pathOf and withoutSecrets answer as before from remembered URLs', () => {
  for (const url of HOSTILE) {
    const u = expected(url) as { pathname: string; search: string } | undefined;
    assert.equal(pathOf(url), u ? u.pathname + u.search : url, url);
    const request = { method: 'GET', url, headers: { Authorization: 'Bearer t', Accept: 'application/json' } };
    let first: unknown;
    try {
      first = withoutSecrets(request);
    } catch (error) {
      first = error instanceof TypeError ? 'throws' : error;
    }
    const again = (() => {
      try {
        return withoutSecrets(request);
      } catch (error) {
        return error instanceof TypeError ? 'throws' : error;
      }
    })();
    assert.deepEqual(again, first, url);
    if (u) assert.doesNotMatch((first as { url: string }).url, /pa55|token=abc|api_key=k|password=x/, url);
  }
});

void test('a URL\'s query parameters, read and set from remembered answers, are what searchParams reads and sets', () => {
  const names = ['page', 'a', 'password', 'x y', '', 'Q', '\u212Aey'];
  const values = ['2', '', 'a b&c=d', '%41', '\u00e9'];
  for (let round = 0; round < 2; round++) {
    for (const url of [...HOSTILE, 'http://h/?page=1&page=2&a', 'http://h/?x+y=1&x%20y=2', 'http://h/p?;a=1']) {
      const u = expected(url) === undefined ? undefined : new URL(url);
      assert.deepEqual(queryPairs(url), u ? [...u.searchParams] : undefined, url);
      for (const name of names) {
        const request = { method: 'GET', url, headers: {} };
        if (!u) {
          assert.throws(() => queryParam(request, name), TypeError, url);
          assert.throws(() => withQueryParam(request, name, 1), TypeError, url);
          continue;
        }
        assert.equal(queryParam(request, name), u.searchParams.get(name) ?? undefined, `${url} ${name}`);
        for (const value of values) {
          const set = new URL(url);
          set.searchParams.set(name, value);
          assert.equal(withQueryValue(url, name, value), set.toString(), `${url} ${name}=${value}`);
        }
      }
    }
  }
});

void test('withQueryValue: no two (url, name, value) share a remembered answer, whatever characters they hold', () => {
  const expected = (url: string, name: string, value: string): string => {
    const u = new URL(url);
    u.searchParams.set(name, value);
    return u.toString();
  };
  // Found in review: with a NUL-separated key, a cursor holding NUL and a URL shaped to match gave another request's URL (another origin).
  const triples: [string, string, string][] = [
    ['https://api.example.com/x?b=1', 'cursor', 'abc\u0000https://evil.example/steal'],
    ['https://evil.example/steal\u0000https://api.example.com/x?b=1', 'cursor', 'abc'],
    ['https://h.example/?a=1', 'a:', '1:x'],
    ['x:https://h.example/?a=1', 'a', '1:'],
    ['https://h.example/', '1:a', ''],
    ['https://h.example/', '1', ':a'],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [url, name, value] of triples) {
      let want: string | undefined;
      try {
        want = expected(url, name, value);
      } catch {
        assert.throws(() => withQueryValue(url, name, value), TypeError, url);
        continue;
      }
      assert.equal(withQueryValue(url, name, value), want, JSON.stringify([url, name, value]));
    }
  }
});
