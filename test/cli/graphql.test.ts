// GraphQL requests as REST Client (X-Request-Type: GraphQL), httpYac (a query/mutation/fragment body,
// variables after a blank line) and JetBrains (a GRAPHQL request line) write them, run by the built
// `apiwb run` against a small GraphQL-shaped server of this test on 127.0.0.1: it parses the JSON body,
// checks query, variables and operationName, and answers {"data": …} or, with a 200, {"errors": […]}.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from './sandboxEnv';
import { runCli, summaryLines } from './cliProcess';

interface Seen { readonly method: string; readonly headers: IncomingHttpHeaders; readonly body: string }
interface GraphqlBody { query?: unknown; variables?: unknown; operationName?: unknown }

/** The server's answer: a GraphQL-shaped check of what it received. */
function answer(seen: Seen): { status: number; body: unknown } {
  if (seen.method !== 'POST') return { status: 405, body: { errors: [{ message: `method ${seen.method}` }] } };
  if (!/^application\/json/.test(seen.headers['content-type'] ?? '')) return { status: 415, body: { errors: [{ message: 'not JSON' }] } };
  let parsed: GraphqlBody;
  try {
    parsed = JSON.parse(seen.body) as GraphqlBody;
  } catch {
    return { status: 400, body: { errors: [{ message: 'body is not JSON' }] } };
  }
  if (typeof parsed.query !== 'string') return { status: 400, body: { errors: [{ message: 'no query' }] } };
  if (typeof parsed.variables !== 'object' || parsed.variables === null || Array.isArray(parsed.variables)) return { status: 400, body: { errors: [{ message: 'variables is not an object' }] } };
  if (parsed.query.includes('missingField')) return { status: 200, body: { errors: [{ message: 'Cannot query field "missingField" on type "Query".', path: ['missingField'] }] } };
  return { status: 200, body: { data: { operationName: parsed.operationName ?? null, variables: parsed.variables } } };
}

void describe('GraphQL requests sent as {query, variables, operationName} (apiwb run over loopback)', () => {
  let dir: string;
  let cli: string;
  let server: Server;
  const seen: Seen[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-graphql-'));
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        const one = { method: req.method ?? '', headers: req.headers, body };
        seen.push(one);
        const { status, body: reply } = answer(one);
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base, first: '2' } }));
    cli = await buildCli(dir);
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(name: string, text: string): Promise<Awaited<ReturnType<typeof runCli>>> {
    const file = join(dir, `${name}.http`);
    writeFileSync(file, text);
    seen.length = 0;
    return runCli(cli, ['run', file, '--env', 'local', '--env-file', join(dir, 'http-client.env.json')]);
  }

  const sentBody = (i = 0): GraphqlBody => JSON.parse(seen[i]?.body ?? 'null') as GraphqlBody;

  void it('REST Client: X-Request-Type: GraphQL, the query, a blank line, the variables', async () => {
    const r = await run('restclient', [
      'POST {{base}}/graphql',
      'Content-Type: application/json',
      'X-REQUEST-TYPE: GraphQL',
      '',
      'query UserById($id: ID!) {',
      '  user(id: $id) { id name }',
      '}',
      '',
      '{"id": "u-42"}',
      '',
    ].join('\n'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers['x-request-type'], undefined, 'the marker header is not sent');
    assert.deepEqual(sentBody(), { query: 'query UserById($id: ID!) {\n  user(id: $id) { id name }\n}', variables: { id: 'u-42' }, operationName: 'UserById' });
  });

  void it('httpYac: a fragment before the operation, variables with an environment variable in them, no Content-Type written', async () => {
    const r = await run('httpyac', [
      'POST {{base}}/graphql',
      '',
      'fragment UserParts on User {',
      '  id',
      '  name',
      '}',
      '',
      'query Users($first: Int) {',
      '  users(first: $first) { ...UserParts }',
      '}',
      '',
      '{"first": {{first}}}',
      '',
    ].join('\n'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(String(seen[0]!.headers['content-type']), /^application\/json/);
    const body = sentBody();
    assert.match(String(body.query), /^fragment UserParts on User \{[\s\S]*\n\nquery Users\(\$first: Int\)/);
    assert.deepEqual(body.variables, { first: 2 });
    assert.equal(body.operationName, 'Users', 'the operation, not the fragment, names it');
  });

  void it('JetBrains: a GRAPHQL request line goes as POST; an anonymous query has no operationName and {} variables', async () => {
    const r = await run('jetbrains', 'GRAPHQL {{base}}/graphql\n\n{\n  viewer { id }\n}\n');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(seen[0]!.method, 'POST');
    assert.deepEqual(sentBody(), { query: '{\n  viewer { id }\n}', variables: {} });
  });

  void it('a JSON body is never taken for GraphQL: it goes as written', async () => {
    const written = '{"query": "query Q { a }", "variables": {"x": 1}}';
    const r = await run('json', `POST {{base}}/graphql\nContent-Type: application/json\n\n${written}\n`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(seen[0]!.body, written);
  });

  void it('{"errors": […]} with a 200 is a business failure: the run fails (exit 1) and says the error', async () => {
    const r = await run('errors', 'POST {{base}}/graphql\nX-Request-Type: GraphQL\n\nquery Broken { missingField }\n');
    assert.equal(seen.length, 1);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(summaryLines(r.stdout)[0]?.ok, false);
    assert.match(r.stdout + r.stderr, /Cannot query field/);
  });

  void it('variables that are not JSON: the request is not sent, and the run says why', async () => {
    const r = await run('badvars', 'POST {{base}}/graphql\nX-Request-Type: GraphQL\n\nquery Q($id: ID) { user(id: $id) { id } }\n\n{"id": }\n');
    assert.equal(seen.length, 0, 'nothing reached the server');
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /GraphQL variables after the query are not JSON/);
  });
});
