// The customer-engagement service (seed 000): token endpoint under /auth, operations under /api.
import type { RequestContext } from '../shared/context';
import type { ChoiceSettings } from '../shared/choices';
import type { PageFaultRegistry } from '../shared/faults';
import { type RunningOrigin, startOrigin } from '../shared/origin';
import { RateLimiter } from '../shared/rateLimit';
import { Router } from '../shared/router';
import { EngagementAuth } from './auth';
import { addBidwhouseRoutes } from './bidwhouseRoutes';
import { addCustomerAssetRoutes } from './customerAssetRoutes';
import type { EngagementData } from './data';
import { addDeprecatedRoutes } from './deprecatedRoutes';
import { addLoyaltyRoutes } from './loyaltyRoutes';
import { addSalesLeadsRoutes } from './salesLeadsRoutes';
import { addSelectionRoutes } from './selectionRoutes';
import { addSurveyApiRoutes } from './surveyApiRoutes';
import { AUTH_PREFIX, addTokenRoutes } from './tokenRoutes';
import { addTransactionRoutes } from './transactionRoutes';

export interface EngagementOptions {
  readonly port: number;
  readonly data: EngagementData;
  readonly exportRows: number;
  readonly selectionPageRows: number;
  readonly lockoutAfter: number;
  readonly tokenLifetimeSeconds: number;
  /** A short token lifetime in seconds, under the `token-lifetime` choice (--token-lifetime). */
  readonly shortTokenLifetimeSeconds?: number;
  /** Requests a second to the paged operations (the `rate-limit` choice; 0 = off). */
  readonly rateLimitPerSecond: number;
  readonly bidwTransientEvery: number;
  readonly pageFaults: PageFaultRegistry;
  readonly choices: ChoiceSettings;
  readonly now: () => number;
}

export interface RunningEngagement extends RunningOrigin {
  readonly authUrl: string;
}

export async function startEngagement(options: EngagementOptions): Promise<RunningEngagement> {
  const auth = new EngagementAuth(options.lockoutAfter, options.tokenLifetimeSeconds, options.now, options.shortTokenLifetimeSeconds);
  const router = new Router(true);
  addTokenRoutes(router, auth, options.now);
  addSurveyApiRoutes(router, auth);
  addTransactionRoutes(router, auth, options.data);
  addLoyaltyRoutes(router, auth, options.data);
  addSalesLeadsRoutes(router, auth, options.data);
  addCustomerAssetRoutes(router, auth, options.data);
  addSelectionRoutes(router, auth, options.data, options.exportRows, options.selectionPageRows);
  addBidwhouseRoutes(router, auth, options.data, options.bidwTransientEvery);
  addDeprecatedRoutes(router);
  const origin = await startOrigin({
    name: 'engagement',
    port: options.port,
    router,
    pageFaults: options.pageFaults,
    choices: options.choices,
    // 404 is the published "invalid parameters or missing endpoint" (seed 000 §7.1); its body is not shown.
    notFound: (ctx: RequestContext) => {
      ctx.rule({ seed: '000', section: '7.1' }, '404: missing endpoint');
      ctx.errorJson(404, { Message: `No HTTP resource was found that matches the request URI '${ctx.url.href}'.` });
    },
    rateLimit: { limiter: new RateLimiter(options.rateLimitPerSecond, options.now), refuse: (ctx, detail, headers) => ctx.errorJson(429, { Message: `Too Many Requests: ${detail}.` }, headers) },
  });
  return { ...origin, authUrl: `${origin.origin}${AUTH_PREFIX}` };
}
