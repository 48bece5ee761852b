// One listening origin (one simulated service) on 127.0.0.1: request log, X-Sandbox-Fault, the
// /__sandbox/ control endpoints, then the service's router.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHOICE_HEADER, type ChoiceSettings, parseChoiceList, withOverrides } from './choices';
import { RequestContext, type RateLimit } from './context';
import { type Fault, type PageFaultRegistry, faultToString, parseFault } from './faults';
import { RequestLog, redactHeaders, redactParams } from './requestLog';
import type { Router } from './router';
import { faultText } from '../../core/text/faultText';

export const SANDBOX_HOST = '127.0.0.1';
const CONTROL_PREFIX = '/__sandbox/';

export interface OriginOptions {
  readonly name: string;
  readonly port: number;
  readonly router: Router;
  /** Routes under /__sandbox/ that belong to the service (e.g. the JWT mint endpoint); not logged. */
  readonly controlRouter?: Router;
  readonly pageFaults: PageFaultRegistry;
  /** The run's sandbox choices; a request may switch the switchable ones with X-Sandbox-Choice. */
  readonly choices: ChoiceSettings;
  /** Answers a path no route matches, in the service's own style. */
  readonly notFound: (ctx: RequestContext) => void;
  /** The `rate-limit` choice's limiter for this service's paged operations, and its refusal's words. */
  readonly rateLimit?: RateLimit;
}

export interface RunningOrigin {
  readonly origin: string;
  readonly log: RequestLog;
  close(): Promise<void>;
}

export async function startOrigin(options: OriginOptions): Promise<RunningOrigin> {
  const log = new RequestLog();
  const closing = new AbortController();
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ Message: 'An error has occurred.', ExceptionMessage: faultText(error) }));
      } else {
        res.destroy();
      }
    });
  });

  let origin = '';
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const isControl = url.pathname.startsWith(CONTROL_PREFIX);
    const entry = isControl ? undefined : log.add({
      time: new Date().toISOString(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: redactParams(url.searchParams),
      headers: redactHeaders(req.headers),
    });
    const ctx = new RequestContext(req, res, origin, entry, options.pageFaults, closing.signal, options.choices);
    ctx.rateLimit = options.rateLimit;
    if (isControl) return control(ctx);

    const choiceHeader = ctx.header(CHOICE_HEADER);
    if (choiceHeader !== undefined) {
      try {
        ctx.choices = withOverrides(options.choices, parseChoiceList(choiceHeader));
      } catch (error) {
        ctx.json(400, { Message: faultText(error) });
        return;
      }
    }

    const faultHeader = ctx.header('x-sandbox-fault');
    if (faultHeader !== undefined) {
      let fault: Fault;
      try {
        fault = parseFault(faultHeader);
      } catch (error) {
        ctx.json(400, { Message: faultText(error) });
        return;
      }
      if (entry) entry.fault = faultToString(fault);
      if (await ctx.applyEarlyFault(fault)) return;
    }
    await route(options.router, ctx, () => options.notFound(ctx));
  }

  async function control(ctx: RequestContext): Promise<void> {
    const p = ctx.path;
    if (p === '/__sandbox/requests' && ctx.method === 'GET') return ctx.json(200, log.list());
    if (p === '/__sandbox/requests' && ctx.method === 'DELETE') {
      log.clear();
      return ctx.json(200, { cleared: true });
    }
    if (p === '/__sandbox/choices' && ctx.method === 'GET') return ctx.json(200, options.choices);
    if (p === '/__sandbox/faults' && ctx.method === 'GET') return ctx.json(200, options.pageFaults.list());
    if (p === '/__sandbox/faults' && ctx.method === 'DELETE') {
      options.pageFaults.clear();
      return ctx.json(200, { cleared: true });
    }
    if (p === '/__sandbox/faults' && ctx.method === 'POST') {
      const body = await ctx.jsonBody();
      const spec = body.kind === 'json' ? (body.value as Record<string, unknown> | null) : null;
      try {
        const failPage = spec?.['failPage'];
        if (typeof failPage === 'string') options.pageFaults.arm(failPage);
        else options.pageFaults.arm({ style: spec?.['style'] as never, page: spec?.['page'] as number, fault: String(spec?.['fault']) });
      } catch (error) {
        return ctx.json(400, { error: faultText(error) });
      }
      return ctx.json(201, options.pageFaults.list());
    }
    if (options.controlRouter) return route(options.controlRouter, ctx, () => ctx.json(404, { error: `no sandbox control endpoint ${ctx.method} ${p}` }));
    return ctx.json(404, { error: `no sandbox control endpoint ${ctx.method} ${p}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, SANDBOX_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${SANDBOX_HOST}:${address.port}`;

  return {
    origin,
    log,
    close: () => new Promise<void>((resolve) => {
      closing.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function route(router: Router, ctx: RequestContext, notFound: () => void): Promise<void> {
  const match = router.match(ctx.method, ctx.path);
  if (match.kind === 'found') {
    ctx.params = match.params;
    await match.handler(ctx);
  } else if (match.kind === 'method-not-allowed') {
    ctx.errorJson(405, { Message: `The requested resource does not support http method '${ctx.method}'.` }, { allow: match.allowed.join(', ') });
  } else {
    notFound();
  }
}
