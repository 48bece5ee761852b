// Where a walk's requests may go: a next link and a resume follow the one cross-origin rule
// (src/core/secrets/crossOrigin.ts, hopTo; a resume through checkpoint.ts's resumeHop, which puts the
// fresh request's credentials back first). Another origin gets nothing that carries a credential, and the
// walk's notices say what was dropped; https → http, or anything but a GET there, is refused.
import type { HttpRequest } from '../http/types';
import { originOf } from '../http/url';
import { droppedWords, hopTo } from '../secrets/crossOrigin';
import type { SecretBindings } from '../secrets/bindings';
import { resumeHop } from './checkpoint';

export type Followed = { readonly ok: true; readonly request: HttpRequest; readonly notice?: string } | { readonly ok: false; readonly reason: string };

/** The request a resume sends: `stored` (the checkpoint's next) with the credentials of `fresh`, where they may go. */
export function resumeFrom(stored: HttpRequest, fresh: HttpRequest, guard: SecretBindings | undefined): Followed {
  const hop = resumeHop(stored, fresh, guard);
  if (!hop.ok) return hop;
  if (!hop.crossOrigin) return { ok: true, request: hop.request };
  const notice = `the walk resumes on another origin (${originOf(hop.request.url)}) than the request's (${originOf(fresh.url)}): ${droppedWords(hop.dropped)}`;
  return { ok: true, request: hop.request, notice };
}

/** The request a next link sends after page `page` (1-based), which `current` answered. */
export function nextLink(current: HttpRequest, next: HttpRequest, page: number, guard: SecretBindings | undefined): Followed {
  const hop = hopTo(current, next, 'next link', guard);
  if (!hop.ok) return hop;
  if (!hop.crossOrigin) return { ok: true, request: hop.request };
  const notice = `page ${page + 1} is on another origin (${originOf(hop.request.url)}) than page ${page} (${originOf(current.url)}): ${droppedWords(hop.dropped)}`;
  return { ok: true, request: hop.request, notice };
}
