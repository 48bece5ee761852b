// Postman URLs: the `raw` string, or host/path/query parts to rebuild it from; and the reverse, so an
// exported request carries both forms (Postman reads either).
import type { PostmanKeyValue, PostmanUrl } from './model';

/** The URL as text with enabled query parameters; Postman `:name` path variables become `{{name}}`. */
export function urlText(url: PostmanUrl | string | undefined): { text: string; pathVariables: PostmanKeyValue[]; disabledQuery: PostmanKeyValue[] } {
  if (url === undefined) return { text: '', pathVariables: [], disabledQuery: [] };
  if (typeof url === 'string') return { text: url, pathVariables: [], disabledQuery: [] };
  const disabledQuery = (url.query ?? []).filter((q) => q.disabled);
  let text = url.raw;
  if (text === undefined) {
    const host = Array.isArray(url.host) ? url.host.join('.') : (url.host ?? '');
    const path = Array.isArray(url.path) ? url.path.join('/') : (url.path ?? '');
    const query = (url.query ?? []).filter((q) => !q.disabled).map((q) => (q.value === undefined || q.value === null ? q.key : `${q.key}=${q.value}`));
    text = `${url.protocol ? `${url.protocol}://` : ''}${host}${url.port ? `:${url.port}` : ''}${path ? `/${path}` : ''}${query.length ? `?${query.join('&')}` : ''}`;
  }
  const pathVariables = url.variable ?? [];
  for (const variable of pathVariables) {
    text = text.replace(new RegExp(`(/):${variable.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|\\?|#|$)`, 'g'), `$1{{${variable.key}}}`);
  }
  return { text, pathVariables, disabledQuery };
}

/** The structured form of a raw URL (Postman shows host/path/query from it). */
export function structuredUrl(raw: string, disabledQuery: readonly PostmanKeyValue[] = []): PostmanUrl {
  const [beforeHash = ''] = raw.split('#', 1);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const queryText = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const protocol = /^([a-z][a-z0-9+.-]*):\/\//i.exec(base)?.[1];
  const rest = protocol ? base.slice(protocol.length + 3) : base;
  const slash = rest.indexOf('/');
  const hostAndPort = slash < 0 ? rest : rest.slice(0, slash);
  const port = hostAndPort.startsWith('{{') ? undefined : /:(\d+)$/.exec(hostAndPort)?.[1];
  const hostPart = port ? hostAndPort.slice(0, -(port.length + 1)) : hostAndPort;
  const pathPart = slash < 0 ? '' : rest.slice(slash + 1);
  const query: PostmanKeyValue[] = queryText === '' ? [] : queryText.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? { key: pair, value: '' } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
  return {
    raw,
    ...(protocol ? { protocol } : {}),
    host: hostPart.startsWith('{{') ? [hostPart] : hostPart.split('.'),
    ...(port ? { port } : {}),
    ...(pathPart ? { path: pathPart.split('/') } : {}),
    ...(query.length || disabledQuery.length ? { query: [...query, ...disabledQuery.map((q) => ({ ...q, disabled: true }))] } : {}),
  };
}
