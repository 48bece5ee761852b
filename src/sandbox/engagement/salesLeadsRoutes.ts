// POST /api/SalesLeads/GetLeads (path inferred), offset + remaining style (seed 000 §4.2 rule 5).
// Body {CtcID, BrandID, PageSize, Offset}. Offset is a row offset, forwarded as given (no rounding to
// pages). Every row carries TotalCounts = the customer's lead count on that brand (a windowed count).
// Remaining is computed the misleading way the contract warns about: it counts the brand's WHOLE lead
// table (every customer) minus (Offset + rows returned), so it stays above 0 after the customer's last
// lead. The reliable end is an empty page (or Offset + rows >= TotalCounts).
// Sandbox choices: inferred-paths (path, method and HTTP error contract not shown: unusable input is
// HTTP 400 with a message); brand-denial (on) — a brand the user may not use is answered as the one
// published brand denial (LoyaltyPoint, seed 000 §7.1): HTTP 200, ResponseStatus=false, code 3 with
// the LoyaltyPoint text. Off: no brand check (how brand permissions apply is not shown, §5.3).
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';
import { ERROR_CATALOGUES } from '../../core/catalog/errorCatalogues';
import { type EngagementData, OTHER_LEADS_PER_BRAND, lead, leadCount } from './data';

const isInt = (v: unknown): v is number => Number.isInteger(v);

export function addSalesLeadsRoutes(router: Router, auth: EngagementAuth, data: EngagementData): void {
  router.post('/api/SalesLeads/GetLeads', async (ctx: RequestContext) => {
    const user = auth.authorize(ctx, 'SalesLeads/GetLeads');
    if (!user) return;
    ctx.choice('inferred-paths');
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Record<string, unknown> : {};
    const { CtcID, BrandID, PageSize } = b;
    const Offset = b['Offset'] ?? 0;
    const problems: string[] = [];
    if (!isInt(CtcID)) problems.push('CtcID is required (integer).');
    if (!isInt(BrandID)) problems.push('BrandID is required (integer).');
    if (!isInt(PageSize) || PageSize < 1) problems.push('PageSize must be a positive integer.');
    if (!isInt(Offset) || Offset < 0) problems.push('Offset must be an integer of at least 0.');
    if (problems.length > 0 || !isInt(CtcID) || !isInt(BrandID) || !isInt(PageSize) || !isInt(Offset)) {
      ctx.json(400, { Message: 'The request is invalid.', Errors: problems });
      return;
    }
    if (!user.brandIDs.includes(BrandID) && ctx.isOn('brand-denial')) {
      ctx.rule({ seed: '000', section: '7.1' }, 'brand denial: HTTP 200, ResponseStatus=false, code 3');
      ctx.choice('brand-denial');
      const denial = ERROR_CATALOGUES.LoyaltyPoint.entries.find((e) => e.code === 3);
      ctx.json(200, { ResponseStatus: false, Errors: [{ ErrorCode: 3, ErrorDescription: denial?.description ?? '' }], _Leads: [], Remaining: 0 });
      return;
    }
    ctx.rule({ seed: '000', section: '4.2' }, 'Offset forwarded as given; Remaining is not an end signal');
    if (await ctx.pageFault('offset-remaining', Math.floor(Offset / PageSize) + 1)) return;
    const total = leadCount(data, CtcID, BrandID);
    const rows = [];
    for (let i = Offset; i < Math.min(total, Offset + PageSize); i++) rows.push(lead(data, CtcID, BrandID, i, total));
    const brandTable = OTHER_LEADS_PER_BRAND + leadCount(data, data.sampleCtcID, BrandID);
    ctx.json(200, { _Leads: rows, Remaining: Math.max(0, brandTable - (Offset + rows.length)) });
  });
}
