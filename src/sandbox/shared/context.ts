// One request as the route handlers see it: parsed URL, lazily read body, and the only ways to
// answer (json, stream), which apply the active fault (drop, malformed-json, drift) on the way out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DRIFT_DROPPED_HEADER, type Fault, type FaultPagingStyle, type PageFaultRegistry, driftJson, faultToString } from './faults';
import { type LoggedRequest, redactForm } from './requestLog';

import type { SeedRef } from '../../core/catalog/model';
import type { SandboxChoiceId } from '../../core/catalog/rules';
import { CHOICE_HEADER, type ChoiceSettings } from './choices';
import type { RateLimiter } from './rateLimit';
import { faultText } from '../../core/text/faultText';

/** The service's rate limit and how it words a refusal (the `rate-limit` choice; see rateLimit.ts). */
export interface RateLimit {
  readonly limiter: RateLimiter;
  readonly refuse: (ctx: RequestContext, detail: string, headers: Record<string, string>) => void;
}

export type Headers = Record<string, string | number>;

/** Largest request body read (requests are small; a bigger one is a client bug worth seeing). */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export type JsonBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'json'; readonly value: unknown };

export class RequestContext {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  readonly query: URLSearchParams;
  params: Record<string, string> = {};
  /** The fault to apply when answering (from X-Sandbox-Fault or an armed page fault). */
  activeFault: Fault | undefined;
  /** The choices in force for this request (the run's, with the request's X-Sandbox-Choice applied). */
  choices: ChoiceSettings;
  /** The service's rate limit, applied to its paged operations (pageFault). */
  rateLimit: RateLimit | undefined;
  private readonly applied: SandboxChoiceId[] = [];
  private bodyPromise: Promise<string> | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly origin: string,
    readonly log: LoggedRequest | undefined,
    private readonly pageFaults: PageFaultRegistry,
    private readonly closing: AbortSignal,
    choices: ChoiceSettings,
  ) {
    this.choices = choices;
    this.method = req.method ?? 'GET';
    this.url = new URL(req.url ?? '/', origin);
    this.path = this.url.pathname;
    this.query = this.url.searchParams;
  }

  /** Whether a choice is on for this request (does not label the answer: see `choice`). */
  isOn(id: SandboxChoiceId): boolean {
    return this.choices[id];
  }

  /** Labels the answer with a choice it applies (X-Sandbox-Choice header and the request log). */
  choice(id: SandboxChoiceId): void {
    if (this.applied.includes(id)) return;
    this.applied.push(id);
    if (this.log) this.log.choices = [...this.applied];
    // Set before the answer starts, so every way of answering (json, send, stream) carries it.
    if (!this.res.headersSent) this.res.setHeader(CHOICE_HEADER, this.applied.join(', '));
  }

  /** Records in the request log a published rule the answer follows, e.g. seed 000 §4.2. */
  rule(source: SeedRef, what?: string): void {
    if (!this.log) return;
    const text = `seed ${source.seed} §${source.section}${what ? `: ${what}` : ''}`;
    this.log.rules = [...(this.log.rules ?? []), text];
  }

  /**
   * An HTTP error whose body the contract does not show: `{Message}` under the error-bodies choice
   * (labelled), an empty body when it is switched off.
   */
  errorJson(status: number, body: Record<string, unknown>, headers: Headers = {}): void {
    if (!this.isOn('error-bodies')) {
      this.send(status, '', headers);
      return;
    }
    this.choice('error-bodies');
    this.json(status, body, headers);
  }

  get remoteAddress(): string {
    return this.req.socket.remoteAddress ?? '';
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  get contentType(): string {
    return (this.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  }

  bodyText(): Promise<string> {
    this.bodyPromise ??= new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      this.req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REQUEST_BYTES) {
          reject(new Error('request body too large'));
          this.req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      this.req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      this.req.on('error', reject);
    }).then((text) => {
      // Only form bodies are logged (the token endpoint's), with the password redacted.
      if (this.log && this.contentType === 'application/x-www-form-urlencoded') {
        this.log.form = redactForm(new URLSearchParams(text));
      }
      return text;
    });
    return this.bodyPromise;
  }

  async jsonBody(): Promise<JsonBody> {
    const text = await this.bodyText();
    if (text.trim() === '') return { kind: 'empty' };
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch (error) {
      return { kind: 'invalid', message: faultText(error) };
    }
  }

  /**
   * Consults the armed page faults for page `page` of a `style` walk. Returns true when the fault
   * has already answered the request (status, huge-body): the handler must then stop, having
   * changed nothing, so a retry of the same page succeeds.
   */
  async pageFault(style: FaultPagingStyle, page: number): Promise<boolean> {
    if (this.overQuota()) return true;
    const fault = this.pageFaults.take(style, page);
    if (!fault) return false;
    if (this.log) this.log.fault = `${style}:${page}:${faultToString(fault)}`;
    return this.applyEarlyFault(fault);
  }

  /** Under the `rate-limit` choice: the quota headers on the answer, and true once a request over it is refused. */
  private overQuota(): boolean {
    const limit = this.rateLimit;
    if (!limit?.limiter.enabled || !this.isOn('rate-limit')) return false;
    const verdict = limit.limiter.admit();
    this.choice('rate-limit');
    for (const [name, value] of Object.entries(verdict.headers)) this.res.setHeader(name, value);
    if (verdict.ok) return false;
    this.activeFault = undefined;
    limit.refuse(this, `at most ${limit.limiter.perSecond} requests a second to the paged operations`, { 'retry-after': String(verdict.retryAfterSeconds) });
    return true;
  }

  /** Applies a fault before the handler: true when the request is answered by it. */
  async applyEarlyFault(fault: Fault): Promise<boolean> {
    switch (fault.kind) {
      case 'status':
        this.activeFault = undefined;
        this.json(fault.status, { Message: `Sandbox fault: status=${fault.status}` });
        return true;
      case 'huge-body':
        this.activeFault = undefined;
        await this.hugeBody(fault.bytes);
        return true;
      case 'delay':
        await sleep(fault.ms, undefined, { signal: this.closing }).catch(() => undefined);
        return this.closing.aborted;
      default:
        this.activeFault = fault;
        return false;
    }
  }

  json(status: number, value: unknown, headers: Headers = {}): void {
    this.send(status, JSON.stringify(value), headers);
  }

  /** Sends a complete text body (JSON unless headers say otherwise). */
  send(status: number, body: string, headers: Headers = {}, contentType = 'application/json; charset=utf-8'): void {
    const fault = this.activeFault;
    if (this.log) this.log.status = status;
    if (fault?.kind === 'malformed-json') body = breakJson(body);
    if (fault?.kind === 'drift') {
      if (contentType.startsWith('application/json')) body = driftJson(body);
      headers = withoutHeader(headers, DRIFT_DROPPED_HEADER);
    }
    this.res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
    if (fault?.kind === 'drip') {
      void this.drip(body, fault.ms);
      return;
    }
    if (fault?.kind === 'drop') {
      this.res.write(body.slice(0, Math.max(1, Math.floor(body.length / 2))), () => this.res.destroy());
      return;
    }
    this.res.end(body);
  }

  /**
   * Streams a JSON body written in chunks (no giant JSON.stringify), honouring back-pressure.
   * `chunks` must concatenate to valid JSON.
   */
  async stream(status: number, chunks: Iterable<string>, headers: Headers = {}): Promise<void> {
    const fault = this.activeFault;
    // Drift rewrites the whole body, so a drifting page is gathered and sent in one piece.
    if (fault?.kind === 'drift') return this.send(status, [...chunks].join(''), headers);
    if (this.log) this.log.status = status;
    this.res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    let source: Iterable<string> = chunks;
    if (fault?.kind === 'malformed-json') source = breakLastChunk(chunks);
    let written = 0;
    for (const chunk of source) {
      if (this.res.destroyed) return;
      if (fault?.kind === 'drop' && written > 0) {
        // Part of the page has gone out: cut the connection mid-body.
        this.res.write(chunk.slice(0, Math.floor(chunk.length / 2)), () => this.res.destroy());
        return;
      }
      written++;
      if (fault?.kind === 'drip') await this.drip(chunk, fault.ms, false);
      else if (!this.res.write(chunk)) await this.drained();
    }
    if (fault?.kind === 'drop') {
      this.res.destroy();
      return;
    }
    this.res.end();
  }

  /** Writes `text` 1 KiB at a time, `ms` apart (a slow network); ends the response when `end`. */
  private async drip(text: string, ms: number, end = true): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; at += 1024) {
      if (this.res.destroyed || this.closing.aborted) return;
      this.res.write(bytes.subarray(at, at + 1024));
      await sleep(ms, undefined, { signal: this.closing }).catch(() => undefined);
    }
    if (end) this.res.end();
  }

  private async hugeBody(bytes: number): Promise<void> {
    const head = '{"padding":"';
    const tail = '"}';
    const fill = Math.max(0, bytes - head.length - tail.length);
    const block = 'x'.repeat(1024 * 1024);
    function* chunks(): Generator<string> {
      yield head;
      for (let left = fill; left > 0; left -= block.length) yield left >= block.length ? block : block.slice(0, left);
      yield tail;
    }
    if (this.log) this.log.status = 200;
    this.res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': head.length + fill + tail.length });
    for (const chunk of chunks()) {
      if (this.res.destroyed) return;
      if (!this.res.write(chunk)) await this.drained();
    }
    this.res.end();
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}

function withoutHeader(headers: Headers, name: string): Headers {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

/** Valid JSON → not JSON: the closing character is replaced by a dangling `,"`. */
function breakJson(body: string): string {
  return `${body.slice(0, -1)},"`;
}

function* breakLastChunk(chunks: Iterable<string>): Generator<string> {
  let previous: string | undefined;
  for (const chunk of chunks) {
    if (previous !== undefined) yield previous;
    previous = chunk;
  }
  yield breakJson(previous ?? '{}');
}
