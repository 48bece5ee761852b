// How an operation is described in words (hover on the request line, diagnostics).
import { releaseLines, type Operation, type QueryParameter } from '../../core/catalog';

export function operationMarkdown(op: Operation): string {
  const parts = [`**${op.method ?? '?'} ${op.path ?? '(path not published)'}** — \`${op.id}\``, op.summary];
  const facts = [
    `service: ${op.service}`,
    `path: ${op.pathStatus === 'published' ? 'published' : op.pathStatus === 'inferred' ? 'not published, inferred as /api/<Family>/<Operation>' : 'not published'}`,
    `auth: ${op.auth.join(', ')}`,
    `paging: ${op.paging}`,
    op.errorCatalogue ? `business errors: ${op.errorCatalogue} catalogue` : undefined,
    op.origin === 'import' ? 'imported from an OpenAPI document' : `source: seed ${op.source.seed} §${op.source.section}`,
  ].filter(Boolean);
  parts.push(facts.map((f) => `- ${f}`).join('\n'));
  parts.push(...releaseLines(op));
  if (op.deprecated) parts.push(`**Deprecated**: use ${op.deprecated.replacement}.`);
  if (op.notShown.length) parts.push(`Not shown by the contract:\n${op.notShown.map((n) => `- ${n}`).join('\n')}`);
  return parts.join('\n\n');
}

export function queryParameterMarkdown(q: QueryParameter): string {
  const facts = [
    `\`${q.type}\``,
    q.required ? 'required' : 'optional',
    q.default !== undefined ? `default ${q.default}` : undefined,
    q.minimum !== undefined ? `minimum ${q.minimum}` : undefined,
    q.maximum !== undefined ? `maximum ${q.maximum}` : undefined,
    q.values ? `values: ${q.values.join(', ')}` : undefined,
  ].filter(Boolean);
  return [`**${q.name}** (query parameter): ${facts.join(', ')}`, q.meaning, `Source: seed ${q.source.seed} §${q.source.section}`].join('\n\n');
}
