// One rule of what a literal credential is (src/core/secrets/literalCredentials.ts), asked by generated
// code and the Postman import/export, by the collections' refusal, and by History's masking of the request
// blocks it stores: a case where an old copy disagreed with it, each part of a request.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactRequestBlocks, secretProblem } from '../../src/core/collections/requestBlocks';
import { HistoryStore } from '../../src/core/history';
import { Redactor } from '../../src/core/secrets';
import { literalCredentials } from '../../src/core/secrets/literalCredentials';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const URL = 'https://api.example.test/v1/login';

/** The source History stores for a block, as written through a real History store. */
async function storedSource(source: string): Promise<string | undefined> {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const entry = await store.record({ request: { method: 'POST', url: URL, headers: {} }, source });
  return entry.source;
}

const multipart = [
  `POST ${URL}`,
  'Content-Type: multipart/form-data; boundary=XyZ',
  '',
  '--XyZ',
  'Content-Disposition: form-data; name="user"',
  '',
  'ann',
  '--XyZ',
  'Content-Disposition: form-data; name="password"',
  '',
  'Hunter2Literal9',
  '--XyZ--',
  '',
].join('\n');

void describe('one rule of literal credentials', () => {
  void it('a Cookie whose pairs\' values are only references holds no literal: code, export, collections and History agree', () => {
    const cookie = { name: 'Cookie', value: 'sid={{sid}}' };
    assert.deepEqual(literalCredentials({ url: URL, headers: [cookie] }), []);
    const block = `GET ${URL}\nCookie: sid={{sid}}\n`;
    assert.equal(secretProblem(block), undefined);
    assert.equal(redactRequestBlocks(block, new Redactor([])), block);
    // A literal value in any pair is one, the same for all of them.
    const literal = { name: 'Cookie', value: 'sid={{sid}}; theme=Dark42' };
    assert.deepEqual(literalCredentials({ url: URL, headers: [literal] }).map((f) => f.what), ['header Cookie']);
    assert.match(secretProblem(`GET ${URL}\nCookie: sid={{sid}}; theme=Dark42\n`) ?? '', /Cookie header/);
  });

  void it('a multipart part named password is masked in the source History stores, as collections refuse it', async () => {
    assert.match(secretProblem(multipart) ?? '', /body field password/);
    const source = await storedSource(multipart);
    assert.ok(source);
    assert.ok(!source.includes('Hunter2Literal9'), source);
    assert.match(source, /name="password"\n\n\*\*\*\n--XyZ--/);
    assert.match(source, /name="user"\n\nann\n/, 'a part that is no secret stays');
  });

  void it('a query parameter whose name is percent-encoded (pass%77ord) is masked in History\'s source, as collections refuse it', async () => {
    const block = `GET ${URL}?user=ann&pass%77ord=Hunter2Literal9\n`;
    assert.match(secretProblem(block) ?? '', /query parameter pass%77ord/);
    const source = await storedSource(block);
    assert.equal(source, `GET ${URL}?user=ann&pass%77ord=***\n`);
  });

  void it('a JSON body\'s nested secret field is masked, its other fields (numbers too) as written', async () => {
    const block = `POST ${URL}\nContent-Type: application/json\n\n{"login": {"pass\\u0077ord": "Hunter2Literal9"}, "amount": 1.10, "big": 12345678901234567890}\n`;
    const source = await storedSource(block);
    assert.ok(source && !source.includes('Hunter2Literal9'), source);
    // An escaped name is found only by parsing: the body is written anew, its numbers as they were written.
    assert.match(source, /"amount": ?1\.10, ?"big": ?12345678901234567890/);
    // A pretty body written anew stays pretty (json/numberText.ts layoutIndent), as the Redactor's bodies do.
    const pretty = await storedSource(`POST ${URL}\nContent-Type: application/json\n\n{\n  "login": {"pass\\u0077ord": "Hunter2Literal9"},\n  "amount": 1.10\n}\n`);
    assert.match(pretty ?? '', /\{\n {2}"login": \{\n {4}"password": "\*\*\*"\n {2}\},\n {2}"amount": 1\.10\n\}/, pretty);
  });
});
