// The request/response shapes every part speaks: the CLI, the paging engine, the auth flows and the panel.
export interface HttpRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** Header names as written by the user; lookups are case-insensitive (see headerValue). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lower-cased header names; repeated headers joined with ', ' (set-cookie kept as the last value). */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body bytes decoded as UTF-8. */
  readonly bodyText: string;
  readonly timing: { readonly startedAt: number; readonly firstByteMs: number; readonly totalMs: number };
  readonly sizeBytes: number;
  /** The redirects followed to get this response, in order (absent when none). */
  readonly redirects?: readonly Redirect[];
}

/** One redirect the client followed. */
export interface Redirect {
  readonly status: number;
  readonly from: string;
  readonly to: string;
  /** It left the origin of `from`. */
  readonly crossOrigin: boolean;
  /** The parts it went without, in words ("header Authorization"); empty when nothing was dropped. */
  readonly dropped: readonly string[];
}


/** Why a request produced no usable response. The message is for people; `kind` is for code. */
/** 'invalid-request': the request itself cannot be sent as written (an input fault: nothing was sent). */
export type HttpFaultKind = 'connection' | 'timeout' | 'aborted' | 'dropped' | 'too-large' | 'tls' | 'redirect' | 'undecodable' | 'invalid-request' | 'refused';

export class HttpFault extends Error {
  constructor(readonly kind: HttpFaultKind, message: string, readonly request: { method: string; url: string }) {
    super(message);
    this.name = 'HttpFault';
  }
}

export function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  // Keys, not entries: no pair array for each header of each lookup (a page's strategy asks several). A key
  // spelt as asked (a response's names are lower-cased) matches without a lower-cased copy of each key; one
  // of ASCII only and of another length cannot match (toLowerCase keeps such a length).
  const keys = Object.keys(headers);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === wanted) return headers[key];
    if ((key.length === wanted.length || NOT_ASCII.test(key)) && key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}

const NOT_ASCII = /[^\x00-\x7f]/;
