// A Postman request's body as .http text: raw (JSON scrubbed of secret fields, other text of secret
// pairs), url-encoded form pairs (encoded except their `{{references}}`), GraphQL as the JSON Postman sends;
// the Content-Type each implies is added where the request has none, and a body a .http file cannot hold
// inline, or of another mode, is left out with a warning.
import { inlineBodyProblem } from '../../httpfile';
import { mapAroundReferences } from '../../secrets/vocabulary';
import { oneLine } from '../../text/oneLine';
import { scrubBody, scrubFormPairs, scrubJsonBody } from '../../secrets/literalCredentials';
import type { DroppedSecret, PostmanKeyValue, PostmanRequest } from './model';

const IMPLIED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json', xml: 'application/xml', html: 'text/html', text: 'text/plain', javascript: 'application/javascript',
};

/** Where an import reports what it dropped and what it left out. */
interface Report {
  readonly dropped: DroppedSecret[];
  readonly warnings: string[];
}

/** Form pairs as a body, encoding everything but `{{references}}`. */
function formBody(pairs: readonly PostmanKeyValue[]): string {
  const encode = (text: string): string => mapAroundReferences(text, encodeURIComponent, (written) => written);
  return pairs.map((p) => `${encode(p.key)}=${encode(p.value ?? '')}`).join('&');
}

/** A Postman body as .http text; the Content-Type it implies is added to `headers` where they have none. */
export function bodyText(b: PostmanRequest['body'], headers: Array<{ name: string; value: string }>, where: string, context: Report): string | undefined {
  if (!b || b.disabled) return undefined;
  const implies = (contentType: string | undefined): void => {
    if (contentType && !headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: contentType });
  };
  const onBody = (text: string): string | undefined => {
    const problem = inlineBodyProblem(text);
    if (!problem) return text;
    context.warnings.push(`${where}: the body was not imported: ${problem}; copy it into a file and send it with < ./file.`);
    return undefined;
  };
  const onDrop = (field: string, reference: string): void => { context.dropped.push({ where, what: `body field ${field}`, replacedBy: reference }); };
  if (b.mode === 'raw' && b.raw !== undefined && b.raw !== '') {
    const language = b.options?.raw?.language;
    implies(language ? IMPLIED_CONTENT_TYPES[language] : undefined);
    const contentType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
    return onBody(scrubBody(b.raw, language === 'json' ? 'application/json' : contentType, onDrop));
  }
  if (b.mode === 'urlencoded') {
    const pairs = scrubFormPairs((b.urlencoded ?? []).filter((p) => !p.disabled), onDrop);
    for (const p of b.urlencoded ?? []) if (p.disabled) context.warnings.push(`${where}: the disabled form field '${oneLine(p.key)}' is not imported (a form body has no place for a field that is not sent).`);
    implies('application/x-www-form-urlencoded');
    return onBody(formBody(pairs));
  }
  if (b.mode === 'graphql' && b.graphql?.query) {
    // Postman sends a GraphQL body as JSON {query, variables}; write exactly that.
    let variables: unknown = {};
    try {
      variables = b.graphql.variables?.trim() ? JSON.parse(b.graphql.variables) : {};
    } catch {
      context.warnings.push(`${where}: the GraphQL variables are not JSON; they were left out.`);
    }
    implies('application/json');
    return onBody(scrubJsonBody(JSON.stringify({ query: b.graphql.query, variables }, null, 2), onDrop));
  }
  if (b.mode && b.mode !== 'raw') context.warnings.push(`${where}: a '${b.mode}' body is not imported; write it in the .http file by hand.`);
  return undefined;
}

