// A compact, readable summary of a parsed file, compared with test/fixtures/http/*.expected.json.
import type { HttpFile } from '../../src/core/httpfile';

export function summarize(file: HttpFile): unknown {
  return {
    blocks: file.blocks.map((b) => ({
      lines: [b.firstLine, b.lastLine],
      ...(b.separator ? { separator: b.separator.title } : {}),
      ...(b.directives.length ? { directives: b.directives.map((d) => (d.value ? `${d.key}=${d.value}` : d.key)) } : {}),
      ...(b.variables.length ? { variables: b.variables.map((v) => `${v.name}=${v.value}`) } : {}),
      ...(b.comments.length ? { comments: b.comments.length } : {}),
      ...(b.request ? { request: summarizeRequest(b.request) } : {}),
    })),
    diagnostics: file.diagnostics.map((d) => `${d.code}@${d.range.start.line}`),
  };
}

function summarizeRequest(r: NonNullable<HttpFile['requests'][number]>): unknown {
  return {
    index: r.index,
    ...(r.name ? { name: r.name } : {}),
    line: `${r.requestLine.method}${r.requestLine.methodWritten ? '' : '(implicit)'} ${r.requestLine.url}${r.requestLine.httpVersion ? ` ${r.requestLine.httpVersion}` : ''}`,
    ...(r.queryParameters.length ? { query: r.queryParameters.map((q) => `${q.name}=${q.value}`) } : {}),
    headers: r.headers.map((h) => `${h.name}: ${h.value}`),
    ...(r.body ? { body: r.body.kind === 'inline' ? { lines: [r.body.range.start.line, r.body.range.end.line] } : { include: r.body.path, substitute: r.body.substituteVariables } } : {}),
    ...(r.responseHandlers.length ? { handlers: r.responseHandlers.map((h) => h.kind) } : {}),
    variables: r.references.map((v) => v.name),
    range: [r.range.start.line, r.range.end.line],
  };
}
