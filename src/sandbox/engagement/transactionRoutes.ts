// The Transaction family (seed 000 §4.2, §8, §9).
// GET /api/Transaction/GetOrdersByCustomer, page-number style. Published (rules 2-3):
// - pageNumber defaults to 1, pageSize to 50; a pageSize above 500 is capped (PageSize reports 500);
// - ctcID missing, or pageNumber/pageSize below 1 → HTTP 400 with the output model;
// - a page past the last → HTTP 200, Response=false; a customer with no history → an empty success.
// An unknown ctcID is answered as a customer with no history: the catalogue text "Invalid CtcID"
// belongs to the SurveyApi and LoyaltyPoint families, and catalogues apply only to their own (§7.2).
// Errors is a list of strings (the "Response + Errors" convention of §7.2); its texts are the sandbox's.
// POST /api/Transaction/PostOrder: supported and distinct from the deprecated Post (§9); its bodies
// are not shown, so under the unpublished-body choice it accepts any body and answers HTTP 200 empty.
import { GET_ORDERS_PAGE_NUMBER, GET_ORDERS_PAGE_SIZE } from '../../core/catalog/engagement/transaction';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';
import { type EngagementData, order, orderCount } from './data';
import { nextOrders } from './nextRelease';

// The published numbers come from the catalog (seed 000 §4.2, §8), not a second copy.
const ORDERS_DEFAULT_PAGE_SIZE = GET_ORDERS_PAGE_SIZE.default;
const ORDERS_MAX_PAGE_SIZE = GET_ORDERS_PAGE_SIZE.maximum;
const ORDERS_DEFAULT_PAGE_NUMBER = GET_ORDERS_PAGE_NUMBER.default;

function intParam(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return /^-?\d+$/.test(raw.trim()) ? Number(raw) : 'invalid';
}

export function addTransactionRoutes(router: Router, auth: EngagementAuth, data: EngagementData): void {
  router.get('/api/Transaction/GetOrdersByCustomer', async (ctx: RequestContext) => {
    if (!auth.authorize(ctx, 'Transaction/GetOrdersByCustomer')) return;
    const ctcRaw = intParam(ctx.query, 'ctcID');
    const pageNumber = intParam(ctx.query, 'pageNumber') ?? ORDERS_DEFAULT_PAGE_NUMBER;
    const pageSize = intParam(ctx.query, 'pageSize') ?? ORDERS_DEFAULT_PAGE_SIZE;
    const model = (page: unknown, size: unknown, total: number, orders: unknown[], ok: boolean, errors: string[]) =>
      ({ PageNumber: page, PageSize: size, TotalOrders: total, Orders: orders, Response: ok, Errors: errors });

    const problems: string[] = [];
    if (ctcRaw === undefined) problems.push('At least one customer identifier (ctcID) is required.');
    if (ctcRaw === 'invalid') problems.push('ctcID must be an integer.');
    if (pageNumber === 'invalid' || pageNumber < 1) problems.push('pageNumber must be an integer of at least 1.');
    if (pageSize === 'invalid' || pageSize < 1) problems.push('pageSize must be an integer of at least 1.');
    if (problems.length > 0 || typeof ctcRaw !== 'number' || typeof pageNumber !== 'number' || typeof pageSize !== 'number') {
      ctx.rule({ seed: '000', section: '4.2' }, 'invalid input: HTTP 400 with the output model');
      ctx.json(400, model(pageNumber === 'invalid' ? null : pageNumber, pageSize === 'invalid' ? null : pageSize, 0, [], false, problems));
      return;
    }
    const effectiveSize = Math.min(pageSize, ORDERS_MAX_PAGE_SIZE);
    ctx.rule({ seed: '000', section: '4.2' }, 'pageNumber default 1, pageSize default 50, capped at 500');
    // orderCount is 0 for a customer with no history and for one the sandbox does not know.
    // The next release (choice release-next, nextRelease.ts): its own list of orders.
    const next = ctx.isOn('release-next') ? nextOrders(data, ctcRaw) : undefined;
    if (next) ctx.choice('release-next');
    const total = next ? next.length : orderCount(data, ctcRaw);
    if (total === 0) ctx.rule({ seed: '000', section: '4.2' }, 'a customer with no history: a successful empty list');
    const lastPage = Math.max(1, Math.ceil(total / effectiveSize));
    if (pageNumber > lastPage) {
      ctx.rule({ seed: '000', section: '4.2' }, 'a page out of range: HTTP 200 with Response=false');
      ctx.json(200, model(pageNumber, effectiveSize, total, [], false, [`Page ${pageNumber} is out of range (last page is ${lastPage}).`]));
      return;
    }
    if (await ctx.pageFault('page-number', pageNumber)) return;
    const from = (pageNumber - 1) * effectiveSize;
    const orders = [];
    for (let i = from; i < Math.min(total, from + effectiveSize); i++) orders.push(next ? next[i] : order(data, ctcRaw, i));
    ctx.json(200, model(pageNumber, effectiveSize, total, orders, true, []));
  });

  router.post('/api/Transaction/PostOrder', async (ctx: RequestContext) => {
    if (!auth.authorize(ctx, 'Transaction/PostOrder')) return;
    await ctx.bodyText();
    ctx.rule({ seed: '000', section: '9' }, 'PostOrder is supported and distinct from Post');
    ctx.choice('unpublished-body');
    ctx.send(200, '');
  });
}
