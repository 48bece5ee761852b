// NO_PROXY's forms: names and their subdomains, leading dots and stars, ports, CIDR ranges, IPv6, '*'.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNoProxy } from '../../src/core/http/noProxy';

const CASES: ReadonlyArray<readonly [rule: string, url: string, bypassed: boolean]> = [
  ['example.com', 'https://example.com/x', true],
  ['example.com', 'https://api.example.com/x', true],
  ['example.com', 'https://notexample.com/x', false],
  ['.example.com', 'https://api.example.com/', true],
  ['*.example.com', 'https://a.b.example.com/', true],
  ['EXAMPLE.com', 'https://Example.COM/', true],
  ['example.com:8443', 'https://example.com:8443/', true],
  ['example.com:8443', 'https://example.com/', false],
  ['example.com:443', 'https://example.com/', true],
  ['example.com:80', 'http://example.com/', true],
  ['10.0.0.0/8', 'http://10.20.30.40/', true],
  ['10.0.0.0/8', 'http://11.0.0.1/', false],
  ['10.0.0.0/8', 'http://ten.example/', false],
  ['192.168.1.0/24', 'http://192.168.1.255/', true],
  ['192.168.1.0/24', 'http://192.168.2.0/', false],
  ['fd00::/8', 'http://[fd12::1]/', true],
  ['fd00::/8', 'http://[fe80::1]/', false],
  ['::1', 'http://[::1]:8080/', true],
  ['[::1]:8080', 'http://[::1]:8080/', true],
  ['[::1]:8080', 'http://[::1]:8081/', false],
  ['127.0.0.1', 'http://127.0.0.1:3000/', true],
  ['127.0.0.1', 'http://127.0.0.2:3000/', false],
  ['*', 'https://anything.test/', true],
  ['a.test, b.test  c.test', 'https://c.test/', true],
  ['', 'https://example.com/', false],
  ['10.0.0.0/33', 'http://10.0.0.1/', false],
];

void describe('NO_PROXY', () => {
  for (const [rule, url, bypassed] of CASES) {
    void it(`'${rule}' ${bypassed ? 'bypasses' : 'does not bypass'} ${url}`, () => {
      assert.equal(parseNoProxy(rule).bypasses(new URL(url)), bypassed);
    });
  }

  void it('takes a list (VS Code http.noProxy)', () => {
    assert.equal(parseNoProxy(['a.test', '10.1.0.0/16']).bypasses(new URL('http://10.1.2.3/')), true);
  });
});
