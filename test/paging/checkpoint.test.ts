// A walk checkpoint holds no secret: secret headers, URL userinfo and secret query parameters are taken
// out when it is written, and put back from the caller's fresh request when a walk resumes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memorySink } from '../../src/core/export/sink';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { HttpFault } from '../../src/core/http/types';
import { walk } from '../../src/core/paging/walker';
import { withSecretsFrom, withoutSecrets, type WalkCheckpoint } from '../../src/core/paging/checkpoint';
import { blankSecretParameters, maySecretQuery } from '../../src/core/paging/checkpoint';
import { recordedResponse } from './recorded';

const fresh: HttpRequest = {
  method: 'GET',
  url: 'https://perm:k3y-userinfo@sandbox.test/api/items?token=t0k-secret&$filter=a,b:c&API_KEY=ak-secret&page=1',
  headers: { Authorization: 'Bearer b3arer-secret', Accept: 'application/json' },
};
const SECRETS = /k3y-userinfo|t0k-secret|ak-secret|b3arer-secret/;

void describe('checkpoint secrets', () => {
  void it('withoutSecrets blanks secret query parameters (any case), keeps their names and every other parameter byte for byte', () => {
    const stored = withoutSecrets(fresh);
    assert.equal(stored.url, 'https://sandbox.test/api/items?token=&$filter=a,b:c&API_KEY=&page=1');
    assert.deepEqual(stored.headers, { Accept: 'application/json' });
    assert.doesNotMatch(JSON.stringify(stored), SECRETS);
    assert.equal(withoutSecrets({ ...fresh, url: 'https://h.test/a?x-api-key=1&servicekey=2&secret=3&access_token=4&password=5&q=6' }).url,
      'https://h.test/a?x-api-key=&servicekey=&secret=&access_token=&password=&q=6');
    assert.equal(withoutSecrets({ ...fresh, url: 'https://h.test/a?page_token=p1&q=%20x' }).url, 'https://h.test/a?page_token=p1&q=%20x', 'not a secret name: kept');
  });

  void it('withoutSecrets skips the URL setters that change nothing and still writes what setting them all writes', () => {
    // The rule as it was written before the setters were skipped: every setter, always.
    const reference = (url: string): string => {
      const u = new URL(url);
      u.username = '';
      u.password = '';
      const blanked = u.search.length <= 1 ? u.search : `?${u.search.slice(1).split('&').map((raw) => (/^(token|api_key|password)$/i.test(raw.split('=')[0] ?? '') ? `${raw.split('=')[0] ?? ''}=` : raw)).join('&')}`;
      u.search = blanked;
      return u.toString();
    };
    const urls = [
      'http://h.test/a', 'http://h.test/a?', 'http://h.test/a?#frag', 'http://h.test/?q=1', 'http://h.test/a?q=a b&r=%zz&s=ü',
      "http://h.test/a?q='\"<>`{}|^", 'https://u@h.test/a?token=x', 'https://u:p@h.test:8443/a?q=1&&&', 'https://:p@h.test/a?=&token',
      'http://h.test/a?q=1&', 'http://h.test/a?+=+&q=%2B#x?y', 'http://[::1]:80/a?Password=1&page=2',
    ];
    for (const url of urls) assert.equal(withoutSecrets({ method: 'GET', url, headers: {} }).url, reference(url), url);
  });

  void it('a query maySecretQuery clears has nothing blankSecretParameters would blank; every secret name, however written, is not cleared', () => {
    const names = ['token', 'TOKEN', 'api_key', 'api+key', 'Api-Key', 'x-api-key', 'password', 'db_password', 'pwd', 'passwd', 'secret', 'client_secret',
      'access_token', 'refresh_token', 'servicekey', 'service_key', 'session', 'SessionId', 'cookie', 'authorization', 'subscription_key',
      'aws_secret_access_key', 'signing+key', 'credential', 'private-key', 'pass', 'passphrase', 'x-auth-token'];
    const written = (name: string): string[] => [name, encodeURIComponent(name), `%${name.charCodeAt(0).toString(16)}${name.slice(1)}`, name.replace(/_/g, '+'), ` ${name}`];
    for (const name of names) {
      for (const form of written(name)) {
        for (const search of [`?${form}=v`, `?page=1&${form}=v`, `?${form}`, `?a=b&${form}=v&c=d#x`]) {
          if (blankSecretParameters(search) !== search) assert.ok(maySecretQuery(search), `${search} has a secret parameter`);
        }
      }
      assert.ok(maySecretQuery(`?${name}=v`), name);
    }
    // Queries without a secret name: given back as they are by the full rule too (or flagged, never wrong).
    const plain = ['', '?', '?page=2&pageSize=50', '?q=a+b&r=%zz', '?ctcID=100001&pageNumber=1&pageSize=50', '?limit=50&offset=100', '?=&&&', '?+=+&q=x', '?page_token=p1', '?nextPageToken=x'];
    for (const search of plain) if (!maySecretQuery(search)) assert.equal(blankSecretParameters(search), search, search);
    assert.equal(maySecretQuery('?page=2&pageSize=50'), false, 'the usual paging query needs no blanking pass');
  });

  void it('maySecretQuery clears no query whose name only Unicode case folding makes secret (the full rule lower-cases with toLowerCase)', () => {
    // U+212A KELVIN SIGN lower-cases to "k", U+0130 to "i̇": isSecretName("to\u212Aen") is true, and /key/i (no u flag) does not match it.
    for (const search of ['?to\u212Aen=v', '?api_\u212Aey=v', '?page=1&to\u212Aen=v']) {
      assert.notEqual(blankSecretParameters(search), search, search);
      assert.ok(maySecretQuery(search), `${search} has a secret parameter`);
    }
  });

  void it('withSecretsFrom puts back the fresh request\'s query secrets, userinfo and headers on the stored next page', () => {
    const next = withoutSecrets({ ...fresh, url: fresh.url.replace('page=1', 'page=2') });
    const resumed = withSecretsFrom(next, fresh);
    assert.equal(resumed.url, 'https://perm:k3y-userinfo@sandbox.test/api/items?token=t0k-secret&$filter=a,b:c&API_KEY=ak-secret&page=2');
    assert.equal(resumed.headers['Authorization'], 'Bearer b3arer-secret');
  });

  void it('withSecretsFrom takes the fresh values (a rotated key), drops a parameter the fresh request no longer has, and gives userinfo only to the same origin', () => {
    const next = withoutSecrets({ ...fresh, url: 'https://sandbox.test/api/items?token=old&api_key=old&page=2' });
    assert.equal(withSecretsFrom(next, { ...fresh, url: 'https://sandbox.test/api/items?token=rotated&page=1' }).url,
      'https://sandbox.test/api/items?token=rotated&page=2');
    const elsewhere = withoutSecrets({ ...fresh, url: 'https://other.test/next?page=2' });
    assert.equal(withSecretsFrom(elsewhere, fresh).url, 'https://other.test/next?page=2', 'no credentials sent to another origin');
  });

  void it('a next page on another origin gets none of its secret query parameters: this origin\'s token is never refilled there', () => {
    const elsewhere = withoutSecrets({ ...fresh, url: 'https://other.test/next?token=theirs&API_KEY=theirs&page=2' });
    const resumed = withSecretsFrom(elsewhere, fresh);
    // The one cross-origin rule drops a secret-named parameter altogether.
    assert.equal(resumed.url, 'https://other.test/next?page=2');
    assert.doesNotMatch(JSON.stringify(resumed), SECRETS);
  });

  void it('a walk that fails writes a checkpoint without the URL secrets, and the resumed walk sends them again', async () => {
    const sent: HttpRequest[] = [];
    let failed = false;
    const send = (req: HttpRequest): Promise<HttpResponse> => {
      sent.push(req);
      const offset = (JSON.parse(req.body ?? '{}') as { OFFSET: number }).OFFSET;
      if (offset === 2 && !failed) {
        failed = true;
        return Promise.reject(new HttpFault('dropped', 'the connection was dropped in the middle of the response body', req));
      }
      const rows = Array.from({ length: offset < 3 ? 2 : 1 }, (_, i) => ({ row: (offset - 1) * 2 + i }));
      return Promise.resolve(recordedResponse(200, {}, JSON.stringify({ TableName: 'SEL_1', Result: rows })));
    };
    const request: HttpRequest = { ...fresh, method: 'POST', url: fresh.url.replace('/api/items', '/api/Selection/GetSelectionResult_Ext'), body: '{"TableName":""}' };
    const plan = { style: 'export-ordinal' as const, options: { pageRows: '2' }, source: 'directive' as const };
    const sink = memorySink();
    const first = await walk(request, { plan, sink, send });
    assert.equal(first.outcome, 'failed');
    const stored = JSON.stringify(first.checkpoint);
    assert.doesNotMatch(stored, SECRETS);
    const resumed = await walk(request, { plan, sink, send, resumeFrom: JSON.parse(stored) as WalkCheckpoint });
    assert.equal(resumed.outcome, 'complete');
    assert.equal(resumed.rows, 5);
    const afterResume = sent.slice(2);
    assert.ok(afterResume.length > 0);
    for (const req of afterResume) {
      assert.equal(req.url, request.url, 'the resumed walk sends the query secrets and userinfo again');
      assert.equal(req.headers['Authorization'], 'Bearer b3arer-secret');
    }
  });
});
