// LoyaltyProgram/Get and LoyaltyPoint/GetBalance: the brand checks of seed 000 §7.1 and §7.3, with
// the "ResponseStatus + Errors" convention.
// - LoyaltyProgram/Get without BrandID when the user has several brands → code 26; with one brand,
//   that brand's program; a BrandID the user may not use → code 3.
// - LoyaltyPoint/GetBalance (representative operation): brand missing or not allowed → HTTP 200,
//   ResponseStatus=false, code 3; unknown ctcID → code 13; method denied for the user → HTTP 403.
import { ERROR_CATALOGUES } from '../../core/catalog/errorCatalogues';
import type { ErrorCatalogueId } from '../../core/catalog/model';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';
import { BRANDS, type EngagementData, customerExists, orderCount } from './data';

function error(catalogue: ErrorCatalogueId, code: number): { ErrorCode: number; ErrorDescription: string } {
  const entry = ERROR_CATALOGUES[catalogue].entries.find((e) => e.code === code);
  return { ErrorCode: code, ErrorDescription: entry?.description ?? '' };
}

function brandParam(ctx: RequestContext): number | undefined {
  const raw = ctx.query.get('BrandID');
  return raw === null || raw.trim() === '' ? undefined : Number(raw);
}

function program(brandID: number): Record<string, unknown> {
  const brand = BRANDS.find((b) => b.BrandID === brandID);
  return { ProgramID: brandID * 10, BrandID: brandID, Name: `${brand?.Name ?? 'Brand'} Rewards`, Tiers: ['Silver', 'Gold', 'Platinum'] };
}

export function addLoyaltyRoutes(router: Router, auth: EngagementAuth, data: EngagementData): void {
  router.get('/api/LoyaltyProgram/Get', (ctx) => {
    const user = auth.authorize(ctx, 'LoyaltyProgram/Get');
    if (!user) return;
    ctx.rule({ seed: '000', section: '7.3' }, 'LoyaltyProgram catalogue: 3 brand, 26 several results');
    const brandID = brandParam(ctx);
    const fail = (code: number): void => ctx.json(200, { ResponseStatus: false, Errors: [error('LoyaltyProgram', code)], Program: null });
    if (brandID === undefined) {
      if (user.brandIDs.length > 1) return fail(26);
      return ctx.json(200, { ResponseStatus: true, Errors: [], Program: program(user.brandIDs[0] ?? 0) });
    }
    if (!user.brandIDs.includes(brandID)) return fail(3);
    ctx.json(200, { ResponseStatus: true, Errors: [], Program: program(brandID) });
  });

  router.get('/api/LoyaltyPoint/GetBalance', (ctx) => {
    const user = auth.authorize(ctx, 'LoyaltyPoint/GetBalance');
    if (!user) return;
    ctx.rule({ seed: '000', section: '7.1' }, 'LoyaltyPoint: brand denial is HTTP 200 with code 3');
    ctx.choice('inferred-paths');
    const brandID = brandParam(ctx);
    const fail = (code: number): void => ctx.json(200, { ResponseStatus: false, Errors: [error('LoyaltyPoint', code)], Points: null });
    if (brandID === undefined || !user.brandIDs.includes(brandID)) return fail(3);
    const ctcID = Number(ctx.query.get('ctcID'));
    if (!customerExists(data, ctcID)) return fail(13);
    ctx.json(200, { ResponseStatus: true, Errors: [], Points: orderCount(data, ctcID) * 10 + brandID });
  });
}
