// A Postman export holds no secret: a literal credential in any part of a request becomes a `{{variable}}`
// (literalCredentials.ts), the password of a URL's user info (`https://ann:pass@api.test/`) as much as a
// header, a query parameter or a body field; the user name stays.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { exportPostmanCollection } from '../../src/core/interop/postman/exportCollection';

const PASSWORD = 'literal-url-pass-1234';

void it('a Postman export holds no password written in a URL', () => {
  const text = `# @name userinfo\nGET https://ann:${PASSWORD}@api.test/items\n\n###\n# @name control\nGET https://api.test/items?api_key=${PASSWORD}x\n`;
  const exported = exportPostmanCollection([{ path: 'a.http', text }], { name: 'c' });
  assert.ok(!exported.text.includes(`${PASSWORD}x`), 'a literal api_key in the query is replaced (control)');
  assert.ok(!exported.text.includes(PASSWORD), `the exported collection holds the URL's password:\n${exported.text}`);
  const item = exported.collection.item[0]?.item?.[0];
  const url = typeof item?.request === 'object' ? item.request.url : undefined;
  assert.equal(typeof url === 'object' ? url.raw : url, 'https://ann:{{url_password}}@api.test/items', 'the user name stays, the password is a variable');
  assert.ok(exported.collection.variable?.some((v) => v.key === 'url_password' && v.value === ''), 'the variable is declared, empty');
  assert.ok(exported.dropped.some((d) => d.where === 'a.http: userinfo' && d.replacedBy === '{{url_password}}'), JSON.stringify(exported.dropped));
});
