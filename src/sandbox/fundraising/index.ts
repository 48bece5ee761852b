// The fundraising service (seed 001): /v1 resources, /openapi/v1.json, /swagger/index.html, and the
// sandbox's stand-in for the platform identity service, POST /__sandbox/jwt.
import type { RequestContext } from '../shared/context';
import type { ChoiceSettings } from '../shared/choices';
import type { PageFaultRegistry } from '../shared/faults';
import { type RunningOrigin, startOrigin } from '../shared/origin';
import { Router } from '../shared/router';
import { FundraisingAuth, JWT_USERS } from './auth';
import { addConstituentRoutes } from './constituentRoutes';
import type { FundraisingData } from './data';
import { signJwt } from './jwt';
import { addListRoutes } from './listRoutes';
import { problem } from './listPaging';
import { RateLimiter } from '../shared/rateLimit';
import { openApiDocument, swaggerPage } from './openapi';
import { FundraisingStore } from './store';
import { addTransactionRoutes } from './transactionRoutes';

export interface FundraisingOptions {
  readonly port: number;
  readonly data: FundraisingData;
  readonly rateLimitPerSecond: number;
  readonly pageFaults: PageFaultRegistry;
  readonly choices: ChoiceSettings;
  readonly now: () => number;
}

export interface RunningFundraising extends RunningOrigin {
  readonly auth: FundraisingAuth;
  readonly jwtMintUrl: string;
  mintJwt(user: string, expiresInSeconds: number): string;
}

export const JWT_ISSUER = 'apiwb-sandbox-identity';

export async function startFundraising(options: FundraisingOptions): Promise<RunningFundraising> {
  const auth = new FundraisingAuth(options.data.seed, options.now);
  const store = new FundraisingStore(options.data);
  const mintJwt = (user: string, expiresInSeconds: number): string => {
    const iat = Math.floor(options.now() / 1000);
    return signJwt({ sub: user, tenant: auth.tenantCode, role: JWT_USERS[user] ?? 'viewer', iat, exp: iat + expiresInSeconds, iss: JWT_ISSUER }, auth.jwtSecret);
  };

  const router = new Router();
  addConstituentRoutes(router, auth, store);
  addTransactionRoutes(router, auth, store);
  addListRoutes(router, auth, store);
  // Published (seed 001 §4): the explorer and the OpenAPI document exist at these paths. What they
  // describe here is the sandbox's own conventions, so they carry that choice's label.
  router.get('/openapi/v1.json', (ctx) => {
    ctx.choice('fundraising-conventions');
    ctx.json(200, openApiDocument(ctx.origin));
  });
  router.get('/swagger/index.html', (ctx) => {
    ctx.choice('fundraising-conventions');
    ctx.send(200, swaggerPage(openApiDocument(ctx.origin)), {}, 'text/html; charset=utf-8');
  });

  const control = new Router();
  control.post('/__sandbox/jwt', async (ctx: RequestContext) => {
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Record<string, unknown> : {};
    const sub = b['sub'];
    const expiresIn = b['expiresInSeconds'] ?? 3600;
    if (typeof sub !== 'string' || JWT_USERS[sub] === undefined) {
      return problem(ctx, 400, 'Bad Request', `sub must be one of ${Object.keys(JWT_USERS).join(', ')}`);
    }
    if (!Number.isInteger(expiresIn)) return problem(ctx, 400, 'Bad Request', 'expiresInSeconds must be an integer (negative gives an expired token)');
    ctx.json(200, { token: mintJwt(sub, expiresIn as number), token_type: 'Bearer', sub, role: JWT_USERS[sub] });
  });

  const origin = await startOrigin({
    name: 'fundraising',
    port: options.port,
    router,
    controlRouter: control,
    pageFaults: options.pageFaults,
    choices: options.choices,
    notFound: (ctx) => problem(ctx, 404, 'Not Found', `no endpoint ${ctx.method} ${ctx.path}`),
    rateLimit: { limiter: new RateLimiter(options.rateLimitPerSecond, options.now), refuse: (ctx, detail, headers) => problem(ctx, 429, 'Too Many Requests', detail, headers) },
  });
  return { ...origin, auth, jwtMintUrl: `${origin.origin}/__sandbox/jwt`, mintJwt };
}
