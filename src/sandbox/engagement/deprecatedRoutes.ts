// Deprecated operations (seed 000 §9): excluded from the reference. What they answer is not shown; the
// sandbox choice deprecated-404 answers HTTP 404, a `Deprecation: true` header and a body naming the
// replacement, so a client sees why.
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';

export const DEPRECATIONS = [
  { template: '/api/Contact/{operation}', replacement: 'Customer operations (/api/Customer/...)' },
  { template: '/api/Survey/{operation}', replacement: 'SurveyApi operations (/api/SurveyApi/...)' },
] as const;

function deprecated(ctx: RequestContext, replacement: string): void {
  ctx.rule({ seed: '000', section: '9' }, 'excluded deprecated operation');
  ctx.choice('deprecated-404');
  ctx.json(404, {
    Message: `${ctx.method} ${ctx.path} is deprecated and not served; use ${replacement}.`,
    Deprecated: true,
    Replacement: replacement,
  }, { deprecation: 'true' });
}

export function addDeprecatedRoutes(router: Router): void {
  for (const { template, replacement } of DEPRECATIONS) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) router.add(method, template, (ctx) => deprecated(ctx, replacement));
  }
  router.post('/api/Transaction/Post', (ctx) =>
    deprecated(ctx, 'POST /api/Transaction/PostOrder (a different, supported operation) or RealTimeTriggerApi operations'));
}
