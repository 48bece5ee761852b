// A walk's checkpoint: enough to continue after a fault, a stop or a restart, as plain JSON. It holds
// the next request WITHOUT its secret headers (Authorization, X-API-Key, Cookie, Proxy-Authorization):
// the caller passes the request again with fresh credentials and the walker re-adds those headers.
import type { SinkCheckpoint } from '../export/sink';
import type { HttpRequest } from '../http/types';
import type { PagingPlan } from './types';

export const SECRET_HEADERS: readonly string[] = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];

export interface WalkCheckpoint {
  readonly version: 1;
  readonly plan: PagingPlan;
  /** The request to send next; undefined when the walk is complete or cannot continue. */
  readonly next?: HttpRequest;
  /** Totals over the whole walk, every resumed part included. */
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  /** The sink's state after the last page written (file sinks). */
  readonly sink?: SinkCheckpoint;
  readonly done: boolean;
  readonly endReason?: string;
}

export function withoutSecrets(request: HttpRequest, secretHeaders: readonly string[] = SECRET_HEADERS): HttpRequest {
  const secret = new Set(secretHeaders.map((h) => h.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!secret.has(name.toLowerCase())) headers[name] = value;
  const url = new URL(request.url);
  url.username = '';
  url.password = '';
  return { ...request, url: url.toString(), headers };
}

/** The checkpoint's request with the secret headers of `fresh` (the caller's current request) put back. */
export function withSecretsFrom(stored: HttpRequest, fresh: HttpRequest, secretHeaders: readonly string[] = SECRET_HEADERS): HttpRequest {
  const secret = new Set(secretHeaders.map((h) => h.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored.headers)) if (!secret.has(name.toLowerCase())) headers[name] = value;
  for (const [name, value] of Object.entries(fresh.headers)) if (secret.has(name.toLowerCase())) headers[name] = value;
  return { ...stored, headers };
}

/** Validates a checkpoint read back from JSON (a file, a message): throws with a reason when unusable. */
export function parseCheckpoint(value: unknown): WalkCheckpoint {
  const c = value as Partial<WalkCheckpoint> | null;
  if (!c || typeof c !== 'object' || c.version !== 1) throw new Error('not a walk checkpoint (version 1)');
  if (!c.plan || typeof c.plan.style !== 'string') throw new Error('the checkpoint has no paging plan');
  for (const key of ['pages', 'rows', 'bytes'] as const) {
    if (typeof c[key] !== 'number' || !Number.isFinite(c[key])) throw new Error(`the checkpoint's ${key} is not a number`);
  }
  if (c.next && (typeof c.next.url !== 'string' || typeof c.next.method !== 'string')) throw new Error("the checkpoint's next request is malformed");
  return c as WalkCheckpoint;
}
