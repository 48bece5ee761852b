// THE cross-origin rule, one for every request the product makes on its own from another one: a redirect
// hop (the HTTP client), a next link (the paging walker) and a resume (a checkpoint's next request with the
// fresh request's credentials). From `from` to `to`:
//   - not an http(s) URL, or https → http: not sent;
//   - the same origin: sent as it is;
//   - another origin: only a GET or HEAD without a body goes (a body, and any other method, stays with
//     the origin it was written for: refused); every part that carries a credential is dropped — URL user
//     info, a credential header by name (the vocabulary's), and any header or query parameter whose value
//     carries a secret held (bindings.ts: any name, any known encoding) — and the hop says exactly which
//     parts, or that it carried none. A Host header names the origin it was written for: it does not go
//     to another (the hop's own is its URL's). A secret left where nothing can be dropped (the path, the
//     host) is the send boundary's to refuse (SecretBindings.refusal), as any request's.
import type { HttpRequest } from '../http/types';
import { urlParts } from '../http/url';
import { headerPart, partWords, queryName, queryPart, type SecretBindings } from './bindings';
import { isCredentialHeader, isSecretName } from './vocabulary';

type HopKind = 'redirect' | 'next link' | 'resume';

export type Hop =
  | {
      readonly ok: true;
      readonly request: HttpRequest;
      /** The hop leaves the origin of `from`. */
      readonly crossOrigin: boolean;
      /** The parts dropped, in words ("header Authorization", "query parameter token"); empty: nothing carried a credential. */
      readonly dropped: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

const BODILESS = new Set(['GET', 'HEAD']);

export function hopTo(from: HttpRequest, to: HttpRequest, kind: HopKind, bindings?: SecretBindings): Hop {
  const source = urlParts(from.url);
  const target = urlParts(to.url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return { ok: false, reason: `the ${kind} goes to '${to.url}', which is not an http(s) URL; not followed` };
  }
  if (source?.protocol === 'https:' && target.protocol === 'http:') {
    return { ok: false, reason: `the ${kind} goes from https to plain http (${target.origin}); not followed, the request would travel unencrypted` };
  }
  if (source && source.origin === target.origin) return { ok: true, request: to, crossOrigin: false, dropped: [] };
  const from_ = source?.origin ?? 'the first request\'s address';
  const method = to.method.toUpperCase();
  if (!BODILESS.has(method) || (to.body !== undefined && to.body !== '')) {
    return { ok: false, reason: `the ${kind} goes to another origin (${target.origin}) as a ${method}${to.body ? ' with a body' : ''}; not followed: a request body and any method but GET stay with ${from_}` };
  }
  return { ok: true, ...withoutCredentials(to, bindings), crossOrigin: true };
}

/** `to` without every part that carries a credential (its headers, URL userinfo, query parameters), and those parts in words. */
function withoutCredentials(to: HttpRequest, bindings: SecretBindings | undefined): { request: HttpRequest; dropped: string[] } {
  const dropped: string[] = [];
  const carries = (text: string): boolean => bindings !== undefined && bindings.inText(text).length > 0;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(to.headers)) {
    const value = to.headers[name] ?? '';
    if (name.toLowerCase() === 'host') continue;
    if (isCredentialHeader(name) || carries(`${name}: ${value}`)) dropped.push(partWords(headerPart(name, bindings)));
    else headers[name] = value;
  }
  const url = new URL(to.url);
  if (url.username || url.password) {
    dropped.push(partWords({ kind: 'userinfo' }));
    url.username = '';
    url.password = '';
  }
  if (url.search.length > 1) {
    const kept: string[] = [];
    for (const raw of url.search.slice(1).split('&')) {
      if (raw !== '' && (isSecretName(queryName(raw)) || carries(raw))) dropped.push(partWords(queryPart(raw, bindings)));
      else kept.push(raw);
    }
    url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  }
  return { request: { method: to.method, url: dropped.length > 0 ? url.toString() : to.url, headers }, dropped };
}

/** What a hop to another origin did, for a notice: exactly what was dropped, or that nothing was carried. */
export function droppedWords(dropped: readonly string[]): string {
  return dropped.length > 0 ? `sent without ${dropped.join(', ')}` : 'it carried no credential, nothing was dropped';
}
