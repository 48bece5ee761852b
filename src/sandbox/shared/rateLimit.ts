// The `rate-limit` sandbox choice (off unless --rate-limit N): at most N requests a second to the paged
// operations of one service (every route that asks `ctx.pageFault`, before it changes anything), in
// fixed windows of one wall-clock second. Every answer under it announces the quota as servers commonly
// do — RateLimit-Limit / -Remaining / -Reset (seconds to the window's end, the IETF drafts) and
// X-RateLimit-Limit / -Remaining / -Reset (the window's end in epoch seconds) — and a request over the
// quota is answered 429 with Retry-After (whole seconds), having changed nothing, so the same request
// succeeds later. Rate limiting is a stated convention of the fundraising list endpoints, but neither its
// values nor how a limited request is answered are published (seed 001 §1, §8).

export type RateVerdict =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly retryAfterSeconds: number; readonly headers: Readonly<Record<string, string>> };

export class RateLimiter {
  private window = -1;
  private used = 0;

  constructor(readonly perSecond: number, private readonly now: () => number) {}

  get enabled(): boolean {
    return this.perSecond > 0;
  }

  /** Counts a request of the current window: admitted or not, and the quota headers to send with the answer. */
  admit(): RateVerdict {
    const now = this.now();
    const window = Math.floor(now / 1000);
    if (window !== this.window) {
      this.window = window;
      this.used = 0;
    }
    const admitted = this.used < this.perSecond;
    if (admitted) this.used++;
    const endsAt = (window + 1) * 1000;
    const resetSeconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
    const remaining = String(this.perSecond - this.used);
    const headers = {
      'ratelimit-limit': String(this.perSecond), 'ratelimit-remaining': remaining, 'ratelimit-reset': String(resetSeconds),
      'x-ratelimit-limit': String(this.perSecond), 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': String(window + 1),
    };
    return admitted ? { ok: true, headers } : { ok: false, retryAfterSeconds: resetSeconds, headers };
  }
}
