// Rule: the Postman import drops nothing without a word. A request that Postman sends without following
// redirects (protocolProfileBehavior.followRedirects: false) is imported with `# @no-redirect` or a
// warning naming it; a disabled url-encoded form field is kept as a comment (as disabled headers and
// query parameters are) or named in a warning. On aa14ca2 both vanish: the imported request follows
// redirects its author turned off, and the disabled field is gone from the file and from every warning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';
import { exportPostmanCollection } from '../../src/core/interop/postman/exportCollection';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

void describe('Postman import: what it does not carry over is said', () => {
  void it('followRedirects: false becomes # @no-redirect, or a warning names the request', () => {
    const text = JSON.stringify({
      info: { name: 'c', schema: SCHEMA },
      item: [{ name: 'login redirect', protocolProfileBehavior: { followRedirects: false }, request: { method: 'GET', url: 'http://a.test/login' } }],
    });
    const imported = importPostmanCollection(text, 'c.json');
    const file = imported.files.map((f) => f.text).join('\n');
    assert.ok(/#\s*@no-redirect/.test(file) || imported.warnings.some((w) => /login redirect/.test(w) && /redirect/i.test(w)),
      `the request follows redirects once imported, and nothing says so:\n${file}\nwarnings: ${JSON.stringify(imported.warnings)}`);
  });

  void it('a disabled url-encoded form field is kept as a comment or named in a warning', () => {
    const text = JSON.stringify({
      info: { name: 'c', schema: SCHEMA },
      item: [{
        name: 'form', request: {
          method: 'POST', url: 'http://a.test/form',
          body: { mode: 'urlencoded', urlencoded: [{ key: 'kept', value: 'one' }, { key: 'debugflag', value: 'verbose', disabled: true }] },
        },
      }],
    });
    const imported = importPostmanCollection(text, 'c.json');
    const file = imported.files.map((f) => f.text).join('\n');
    assert.ok(file.includes('kept=one'), file);
    assert.ok(file.includes('debugflag') || imported.warnings.some((w) => w.includes('debugflag')),
      `the disabled field debugflag is neither in the file nor in a warning:\n${file}\nwarnings: ${JSON.stringify(imported.warnings)}`);
  });

  void it('every other setting is named; one a .http file holds anyway is not', () => {
    const text = JSON.stringify({
      info: { name: 'c', schema: SCHEMA },
      item: [{ name: 'strict', protocolProfileBehavior: { strictSSL: false, disableBodyPruning: true, followRedirects: true, tlsClientKeyPassphrase: 'Hunter2-secret-value' }, request: { method: 'GET', url: 'http://a.test/x' } }],
    });
    const imported = importPostmanCollection(text, 'c.json');
    assert.deepEqual(imported.warnings.filter((w) => /setting/.test(w)), ["strict: the Postman setting 'strictSSL' is not imported; a .http request has no line for it.", "strict: the Postman setting 'tlsClientKeyPassphrase' is not imported; a .http request has no line for it."]);
    assert.ok(!/@no-redirect/.test(imported.files.map((f) => f.text).join('\n')));
    assert.ok(!JSON.stringify(imported).includes('Hunter2'), 'a setting\'s value is never repeated');
  });

  void it('# @no-redirect goes out as followRedirects: false and comes back as one # @no-redirect', () => {
    const exported = exportPostmanCollection([{ path: 'login.http', text: '# @name login\n# @no-redirect\nGET http://a.test/login\n' }], { name: 'c' });
    assert.deepEqual(exported.collection.item[0]?.item?.[0]?.protocolProfileBehavior, { followRedirects: false });
    const back = importPostmanCollection(exported.text, 'c.json').files.map((f) => f.text).join('\n');
    assert.equal(back.match(/@no-redirect/g)?.length, 1, back);
  });
});
