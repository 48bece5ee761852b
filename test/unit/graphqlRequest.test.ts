// The GraphQL rule (src/core/graphql/graphqlRequest.ts): which requests are GraphQL and the JSON they go
// as; then through the core (parse → prepareRequest → runExchange over the real HTTP client) to a
// GraphQL-shaped server of this test on 127.0.0.1, with variables, a `< ./query.graphql` body, the
// business verdict of {"errors": […]}, and Copy as curl and generated code built from the same rule.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { generateSnippet } from '../../src/core/codegen';
import { graphqlRequest, isGraphqlRequest, operationNameOf, withFileFragments } from '../../src/core/graphql/graphqlRequest';
import { graphqlFragmentsOf } from '../../src/core/httpfile/foreign';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { curlForHttpRequest } from '../../src/core/interop/curl';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import type { PrepareContext } from '../../src/core/run/prepareRequest';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from './exchangeContext';

const req = (method: string, body: string | undefined, headers: Record<string, string> = {}) => ({ method, url: 'http://127.0.0.1:1/graphql', headers, ...(body === undefined ? {} : { body }) });
const sent = (r: ReturnType<typeof graphqlRequest>): { method: string; headers: Record<string, string>; body: unknown } => {
  assert.ok(r.graphql && 'request' in r, JSON.stringify(r));
  return { method: r.request.method, headers: { ...r.request.headers }, body: JSON.parse(r.request.body ?? 'null') as unknown };
};

void describe('which requests are GraphQL', () => {
  void it('GRAPHQL lines, the X-Request-Type header (any case), and bodies starting with an operation, a fragment or a selection set', () => {
    assert.equal(isGraphqlRequest('GRAPHQL', {}, undefined), true);
    assert.equal(isGraphqlRequest('POST', { 'x-request-type': 'graphql' }, 'anything'), true);
    for (const body of ['query Q { a }', 'mutation { a }', 'subscription S { a }', 'fragment F on T { a }', '{ viewer { id } }', '# a comment\n\nquery { a }']) {
      assert.equal(isGraphqlRequest('POST', {}, body), true, body);
    }
  });

  void it('never JSON, nor a word that only starts like an operation', () => {
    for (const body of ['{"query": "query { a }"}', '{}', '{ "a": 1 }', 'queryString=1', '[1]', 'mutations are fun']) {
      assert.equal(isGraphqlRequest('POST', {}, body), false, body);
    }
    assert.equal(isGraphqlRequest('POST', { 'X-Request-Type': 'REST' }, 'x'), false);
    assert.equal(isGraphqlRequest('POST', {}, 'query=abc&page=2'), false, 'a form body');
    assert.equal(isGraphqlRequest('POST', { 'Content-Type': 'text/plain' }, 'query Q { a }'), false, 'a Content-Type that is not JSON says otherwise');
    assert.equal(isGraphqlRequest('POST', { 'Content-Type': 'application/graphql' }, 'query Q { a }'), true);
  });
});

void describe('the JSON a GraphQL request goes as', () => {
  void it('query, then variables after a blank line, and the operation name; the marker header dropped, Content-Type set', () => {
    const r = sent(graphqlRequest(req('POST', 'query GetUser($id: ID!) {\n  user(id: $id) { id }\n}\n\n{"id": 7}', { 'X-Request-Type': 'GraphQL' })));
    assert.deepEqual(r.body, { query: 'query GetUser($id: ID!) {\n  user(id: $id) { id }\n}', variables: { id: 7 }, operationName: 'GetUser' });
    assert.deepEqual(r.headers, { 'Content-Type': 'application/json' });
  });

  void it('a blank line inside the document does not cut it: only a trailing JSON object is the variables', () => {
    const body = 'fragment F on User {\n  id\n}\n\nquery Q {\n  me { ...F }\n}\n\n{"a": [1, 2]}';
    const r = sent(graphqlRequest(req('POST', body)));
    assert.deepEqual(r.body, { query: 'fragment F on User {\n  id\n}\n\nquery Q {\n  me { ...F }\n}', variables: { a: [1, 2] }, operationName: 'Q' });
  });

  void it("a file's fragments join the query that spreads them, transitively; unused ones and ones the query defines do not", () => {
    const fragments = ['fragment A on T {\n  id\n  ...B\n}', 'fragment B on T { name }', 'fragment Unused on T { x }', 'fragment Own on T { from_file }'];
    assert.equal(withFileFragments('query Q { t { ...A } }', fragments), 'query Q { t { ...A } }\n\nfragment A on T {\n  id\n  ...B\n}\n\nfragment B on T { name }');
    assert.equal(withFileFragments('query Q { t { ...Own } }\nfragment Own on T { mine }', fragments), 'query Q { t { ...Own } }\nfragment Own on T { mine }');
    assert.equal(withFileFragments('query Q { t { id } }', fragments), 'query Q { t { id } }');
    assert.equal(withFileFragments('query Q { t { ...Missing } }', fragments), 'query Q { t { ...Missing } }');
  });

  void it('a fragment written above the request line (httpYac) is sent inside the query that spreads it', () => {
    const file = parseHttpFile('fragment Parts on User {\n  id\n}\n\nPOST http://127.0.0.1:1/graphql\n\nquery Me { me { ...Parts } }\n');
    assert.deepEqual(graphqlFragmentsOf(file), ['fragment Parts on User {\n  id\n}']);
    const r = sent(graphqlRequest(req('POST', 'query Me { me { ...Parts } }'), graphqlFragmentsOf(file)));
    assert.deepEqual(r.body, { query: 'query Me { me { ...Parts } }\n\nfragment Parts on User {\n  id\n}', variables: {}, operationName: 'Me' });
  });

  void it('the operation names it, not a fragment before it; an anonymous one has none', () => {
    assert.equal(operationNameOf('fragment Parts on User { id name { first } }\nmutation Save { save { ...Parts } }'), 'Save');
    assert.equal(operationNameOf('query { a }'), undefined);
    assert.equal(operationNameOf('{ a }'), undefined);
  });

  void it('GRAPHQL goes as POST; a JSON Content-Type written stays, another is replaced', () => {
    const a = sent(graphqlRequest(req('GRAPHQL', 'query { a }', { 'content-type': 'application/json; charset=utf-8' })));
    assert.equal(a.method, 'POST');
    assert.equal(a.headers['content-type'], 'application/json; charset=utf-8');
    const b = sent(graphqlRequest(req('POST', 'query { a }', { 'Content-Type': 'text/plain', 'X-Request-Type': 'GraphQL' })));
    assert.equal(b.headers['Content-Type'], 'application/json');
  });

  void it('faults in words: variables not JSON, not an object, no query', () => {
    assert.match(JSON.stringify(graphqlRequest(req('POST', 'query { a }\n\n{"a": }'))), /not JSON/);
    assert.match(JSON.stringify(graphqlRequest(req('GRAPHQL', 'query { a }\n\n["x"]'))), /must be a JSON object/);
    assert.match(JSON.stringify(graphqlRequest(req('GRAPHQL', undefined))), /needs a query/);
  });

  void it('any other request is left alone', () => {
    assert.deepEqual(graphqlRequest(req('POST', '{"a": 1}', { 'Content-Type': 'application/json' })), { graphql: false });
  });
});

void describe('GraphQL through the core over real HTTP', () => {
  let server: Server;
  let base = '';
  const received: { method: string; contentType: string; body: unknown }[] = [];

  before(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => { text += chunk; });
      request.on('end', () => {
        let body: { query?: string; variables?: Record<string, unknown>; operationName?: string } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          response.writeHead(400, { 'Content-Type': 'application/json' }).end('{"errors":[{"message":"not JSON"}]}');
          return;
        }
        received.push({ method: request.method ?? '', contentType: request.headers['content-type'] ?? '', body });
        const answer = body.query?.includes('missingField')
          ? { errors: [{ message: 'Cannot query field "missingField"' }] }
          : { data: { user: { id: body.variables?.id ?? null, operation: body.operationName ?? null } } };
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await closeHttpAgents();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const ports = (): ExchangePorts => ({ http: httpClient, catalog: createCatalog([]), timeoutMs: 5000, guard: new SecretBindings() });
  const withIncludes = (files: Record<string, string>): PrepareContext => ({
    ...devContext(base),
    readInclude: (path) => (path in files ? Promise.resolve(files[path]!) : Promise.reject(Object.assign(new Error(`no ${path}`), { code: 'ENOENT' }))),
  });

  void it('a query with variables (one of them an environment variable) is answered with data, ok', async () => {
    received.length = 0;
    const file = parseHttpFile('POST {{base}}/graphql\nX-Request-Type: GraphQL\n\nquery User($id: ID!, $base: String) { user(id: $id) { id } }\n\n{"id": "u-9", "base": "{{base}}"}\n');
    const result = await runExchange({ file, requestIndex: 0, prepare: withIncludes({}), pages: 'first' }, ports());
    assert.equal(result.ok, true, result.problem);
    assert.deepEqual(received[0], { method: 'POST', contentType: 'application/json', body: { query: 'query User($id: ID!, $base: String) { user(id: $id) { id } }', variables: { id: 'u-9', base }, operationName: 'User' } });
    assert.deepEqual(result.body, { data: { user: { id: 'u-9', operation: 'User' } } });
  });

  void it('a GRAPHQL line whose body is `< ./user.graphql` (httpYac import) sends the file as the query', async () => {
    received.length = 0;
    const file = parseHttpFile('GRAPHQL {{base}}/graphql\n\n< ./user.graphql\n');
    const result = await runExchange({ file, requestIndex: 0, prepare: withIncludes({ './user.graphql': 'query FromFile { user(id: 1) { id } }\n\n{"id": 1}\n' }), pages: 'first' }, ports());
    assert.equal(result.ok, true, result.problem);
    assert.deepEqual(received[0]?.body, { query: 'query FromFile { user(id: 1) { id } }', variables: { id: 1 }, operationName: 'FromFile' });
  });

  void it('{"errors": […]} with a 200 is a business failure of the exchange', async () => {
    const file = parseHttpFile('GRAPHQL {{base}}/graphql\n\nquery Broken { missingField }\n');
    const result = await runExchange({ file, requestIndex: 0, prepare: withIncludes({}), pages: 'first' }, ports());
    assert.equal(result.response?.status, 200);
    assert.equal(result.ok, false);
    assert.deepEqual(result.failedOnlyOn, ['business']);
    assert.deepEqual(result.businessFailures, ['Cannot query field "missingField"'], 'the error\'s message, not its JSON');
  });

  void it('Copy as curl and generated code send the same JSON as the run', async () => {
    const file = parseHttpFile('POST {{base}}/graphql\nX-Request-Type: GraphQL\n\nquery User($id: ID!) { user(id: $id) { id } }\n\n{"id": "u-9"}\n');
    const curl = curlForHttpRequest(file, 0, { environment: { base } });
    assert.ok(curl);
    const text = curl.command;
    assert.doesNotMatch(text, /X-Request-Type/i);
    assert.match(text, /application\/json/);
    assert.ok(text.includes('"operationName":"User"'), text);
    const environment = devContext(base).environment;
    const code = await generateSnippet({ file, requestIndex: 0, environment, allEnvironments: [environment], catalog: createCatalog([]), readInclude: () => Promise.reject(new Error('none')), knownSecrets: [] }, 'curl');
    assert.ok(code.code.includes('\\"variables\\":{\\"id\\":\\"u-9\\"}') || code.code.includes('"variables":{"id":"u-9"}'), code.code);
  });
});
