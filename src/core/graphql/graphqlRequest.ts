// THE GraphQL rule: which requests of a .http file are GraphQL, and the JSON body they are sent with.
// A request is GraphQL when
//   - its method is GRAPHQL (JetBrains HTTP Client, httpYac): it is sent as POST;
//   - it has the header `X-Request-Type: GraphQL` (REST Client): the header itself is not sent;
//   - its body starts (after `#` comment lines) with `query`, `mutation`, `subscription`, `fragment` or a
//     selection set `{ field` (httpYac), and no Content-Type other than JSON or GraphQL is written; a JSON
//     object starts `{"` or `{}`, so JSON is never taken for it, nor a form `query=…`.
// Its body is the GraphQL document (fragments before or after the operation, as written), then, after a
// blank line, an optional JSON object of variables. A fragment written outside every request (httpYac:
// `fragment Name on Type { … }` above a request line) joins the query when the query spreads it
// (`...Name`), and so do the fragments it spreads in turn; one the query defines itself wins. It goes as `{"query", "variables", "operationName"}`
// with Content-Type application/json; operationName is the name of the document's first operation
// when it has one. Used by prepareRequest, so `apiwb run`, the editor's Send and generated code agree,
// and by Copy as curl. An answer's `errors` (even with a 200) are a business failure: the `errors`
// convention of src/core/catalog/businessErrors.ts already judges them so.
import type { HttpRequest } from '../http/types';
import { isJsonObject } from '../json/numberText';
import { faultText } from '../text/faultText';

const REQUEST_TYPE = 'x-request-type';
const OPERATION = /^\s*(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/m;
const DOCUMENT_START = /^(?:(?:query|mutation|subscription)(?=[\s({]|$)|fragment\s)|^\{\s*[_A-Za-z]/;

export type GraphqlPrepared =
  | { readonly graphql: false }
  | { readonly graphql: true; readonly request: HttpRequest }
  | { readonly graphql: true; readonly problem: string };

/** The text without its leading `#` comment lines and blank lines. */
function withoutLeadingComments(text: string): string {
  return text.replace(/^(?:[ \t]*(?:#[^\n]*)?\r?\n)*/, '').trimStart();
}

/** True when the request is one of the three tools' GraphQL forms (see the top of this file). */
export function isGraphqlRequest(method: string, headers: Readonly<Record<string, string>>, body: string | undefined): boolean {
  if (method.toUpperCase() === 'GRAPHQL') return true;
  if (Object.entries(headers).some(([name, value]) => name.toLowerCase() === REQUEST_TYPE && value.trim().toLowerCase() === 'graphql')) return true;
  // By its body only when no Content-Type says it is something else (a form `query=…` stays a form).
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (contentType !== undefined && !/json|graphql/i.test(contentType)) return false;
  return body !== undefined && DOCUMENT_START.test(withoutLeadingComments(body));
}

/** The document and its variables' text: the variables are the last blank-line-separated part, when it is JSON. */
function splitBody(body: string): { query: string; variables: string } {
  const chunks = body.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/);
  for (let i = 1; i < chunks.length; i++) {
    const rest = chunks.slice(i).join('\n\n').trim();
    if (looksLikeJsonObject(rest)) return { query: chunks.slice(0, i).join('\n\n').trim(), variables: rest };
  }
  return { query: body.trim(), variables: '' };
}

/** `{"…`, `{}`, `[…` or null: JSON (a GraphQL selection set has a name after its brace; no definition starts with `[`). */
function looksLikeJsonObject(text: string): boolean {
  return /^(?:\{\s*["}]|\[|null$)/.test(text);
}

/** The name of the document's first operation (`query Name(…)`), when it has one. */
export function operationNameOf(query: string): string | undefined {
  const withoutFragments = query.replace(/^\s*fragment\b[^{]*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}/gm, '');
  return OPERATION.exec(withoutFragments)?.[2];
}

/** The request as it goes when it is GraphQL; `{ graphql: false }` for any other request. */
/** `fragment Name on Type` at the start of a text: the fragment's name. */
const FRAGMENT_NAME = /^\s*fragment\s+([_A-Za-z][_0-9A-Za-z]*)/;
const FRAGMENT_DEFINED = /\bfragment\s+([_A-Za-z][_0-9A-Za-z]*)/g;
const SPREAD = /\.\.\.\s*([_A-Za-z][_0-9A-Za-z]*)/g;

/** The query with every file-level fragment it spreads, directly or through another fragment, appended. */
export function withFileFragments(query: string, fileFragments: readonly string[]): string {
  const byName = new Map<string, string>();
  for (const text of fileFragments) {
    const name = FRAGMENT_NAME.exec(text)?.[1];
    if (name !== undefined && !byName.has(name)) byName.set(name, text.trim());
  }
  const defined = new Set([...query.matchAll(FRAGMENT_DEFINED)].map((m) => m[1]!));
  const added: string[] = [];
  const pending = [...query.matchAll(SPREAD)].map((m) => m[1]!);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const text = byName.get(name);
    if (text === undefined || defined.has(name)) continue;
    defined.add(name);
    added.push(text);
    pending.push(...[...text.matchAll(SPREAD)].map((m) => m[1]!));
  }
  return added.length === 0 ? query : `${query}\n\n${added.join('\n\n')}`;
}

export function graphqlRequest(request: HttpRequest, fileFragments: readonly string[] = []): GraphqlPrepared {
  if (!isGraphqlRequest(request.method, request.headers, request.body)) return { graphql: false };
  const split = splitBody(request.body ?? '');
  const variablesText = split.variables;
  const query = withFileFragments(split.query, fileFragments);
  if (query === '') return { graphql: true, problem: 'a GraphQL request needs a query in its body' };
  let variables: unknown = {};
  if (variablesText !== '') {
    try {
      variables = JSON.parse(variablesText) as unknown;
    } catch (error) {
      return { graphql: true, problem: `the GraphQL variables after the query are not JSON: ${faultText(error)}` };
    }
    if (variables === null) variables = {};
    else if (!isJsonObject(variables)) return { graphql: true, problem: 'the GraphQL variables after the query must be a JSON object' };
  }
  const operationName = operationNameOf(query);
  const headers: Record<string, string> = {};
  let contentType = false;
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === REQUEST_TYPE) continue;
    if (lower === 'content-type') {
      contentType = true;
      // A JSON type the user wrote stays as written (with its charset); any other would mislabel the body.
      headers[name] = /json/i.test(value) ? value : 'application/json';
      continue;
    }
    if (lower === 'content-length') continue;
    headers[name] = value;
  }
  if (!contentType) headers['Content-Type'] = 'application/json';
  const body = JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) });
  const method = request.method.toUpperCase() === 'GRAPHQL' ? 'POST' : request.method;
  return { graphql: true, request: { ...request, method, headers, body } };
}

