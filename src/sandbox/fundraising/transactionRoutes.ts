// /v1/transactions (seed 001 §2, §4, later release): list with filters dateAdded / dateChanged (ISO
// date or date-time: records added / changed at or after it), sort (dateAdded | -dateAdded) and
// include=allocations; read one, always with allocations (include trackingCodes, softCredits);
// create (201 + Location, the single-read shape without includes; giftAid, allocations[].canRecoverTax
// and the five utm fields accepted; no mainContactConstituentId or giftAidDeclarationId in the answer).
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { FundraisingAuth } from './auth';
import { FIRST_TRANSACTION_ID, type Json, transactionInclude } from './data';
import { problem, readIncludes, readPaging, sendPage } from './listPaging';
import { nextPayments } from './nextRelease';
import type { FundraisingStore } from './store';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const UTM = ['utmSource', 'utmMedium', 'utmTerm', 'utmContent', 'utmCampaign'] as const;

function readSince(ctx: RequestContext, name: string): number | null | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return null;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) return void problem(ctx, 400, 'Bad Request', `${name} must be an ISO 8601 date or date-time`);
  return ms;
}

function* currentPayments(count: number, single: (id: number) => Json | undefined): Generator<Json> {
  for (let i = 0; i < count; i++) {
    const payment = single(FIRST_TRANSACTION_ID + i);
    if (payment) yield payment;
  }
}

export function addTransactionRoutes(router: Router, auth: FundraisingAuth, store: FundraisingStore): void {
  const single = (id: number): Json | undefined => {
    const created = store.createdPayments.get(id);
    if (created) return { ...created.payment, allocations: created.allocations };
    const generated = store.generatedTransaction(id);
    return generated ? { ...generated, allocations: transactionInclude(store.data, generated, 'allocations') } : undefined;
  };
  const include = (payment: Json, name: string): unknown => {
    const created = store.createdPayments.get(Number(payment['transactionId']));
    if (created) return name === 'trackingCodes' ? created.trackingCodes : name === 'softCredits' ? [] : created.allocations;
    return transactionInclude(store.data, payment, name);
  };

  router.get('/v1/transactions', async (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const paging = readPaging(ctx);
    const includes = paging && readIncludes(ctx, ['allocations']);
    const added = includes && readSince(ctx, 'dateAdded');
    const changed = added !== undefined && includes ? readSince(ctx, 'dateChanged') : undefined;
    if (!paging || !includes || added === undefined || changed === undefined) return;
    const sort = ctx.query.get('sort') ?? 'dateAdded';
    if (sort !== 'dateAdded' && sort !== '-dateAdded') return problem(ctx, 400, 'Bad Request', 'sort accepts dateAdded or -dateAdded');
    if (await ctx.pageFault('generic', Math.floor(paging.offset / paging.limit) + 1)) return;
    const matches: Json[] = [];
    const next = ctx.isOn('release-next');
    if (next) ctx.choice('release-next');
    for (const payment of next ? nextPayments(store.data, store.transactionCount, single) : currentPayments(store.transactionCount, single)) {
      if (added !== null && Date.parse(String(payment['dateAdded'])) < added) continue;
      if (changed !== null && Date.parse(String(payment['dateChanged'])) < changed) continue;
      matches.push(payment);
    }
    if (sort === '-dateAdded') matches.reverse();
    const value = matches.slice(paging.offset, paging.offset + paging.limit).map((p) => {
      if (includes.includes('allocations')) return p;
      const { allocations: _omitted, ...rest } = p;
      return rest;
    });
    sendPage(ctx, matches.length, value, paging);
  });

  router.get('/v1/transactions/{transactionId}', (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const includes = readIncludes(ctx, ['trackingCodes', 'softCredits', 'allocations']);
    if (!includes) return;
    const payment = single(Number(ctx.params['transactionId']));
    if (!payment) return problem(ctx, 404, 'Not Found', `no transaction ${ctx.params['transactionId'] ?? ''}`);
    for (const name of includes) if (name !== 'allocations') payment[name] = include(payment, name);
    ctx.json(200, payment);
  });

  router.post('/v1/transactions', async (ctx) => {
    if (!auth.authorize(ctx, 'write')) return;
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && isObject(body.value) ? body.value : undefined;
    if (!b) return problem(ctx, 400, 'Bad Request', 'the body must be a JSON object');
    const amount = b['amount'];
    if (typeof amount !== 'number' || !(amount > 0)) return problem(ctx, 400, 'Bad Request', 'amount must be a positive number');
    if (!store.constituentById(Number(b['constituentId']))) return problem(ctx, 400, 'Bad Request', 'constituentId must name an existing constituent');
    const givenAllocations = b['allocations'] === undefined ? [{ amount }] : b['allocations'];
    if (!Array.isArray(givenAllocations) || givenAllocations.length === 0 || !givenAllocations.every(isObject)) {
      return problem(ctx, 400, 'Bad Request', 'allocations must be a non-empty array of objects');
    }
    if (givenAllocations.some((a) => a['canRecoverTax'] !== undefined && typeof a['canRecoverTax'] !== 'boolean')) {
      return problem(ctx, 400, 'Bad Request', 'allocations[].canRecoverTax must be a boolean');
    }
    const giftAid = b['giftAid'];
    if (giftAid !== undefined && !isObject(giftAid)) return problem(ctx, 400, 'Bad Request', 'giftAid must be an object');
    const id = store.nextTransactionId();
    const now = new Date().toISOString();
    const allocations = givenAllocations.map((a) => ({
      allocationId: store.nextAllocationId++,
      productCode: typeof a['productCode'] === 'string' ? a['productCode'] : 'DONATION',
      fundCode: typeof a['fundCode'] === 'string' ? a['fundCode'] : 'GENERAL',
      amount: typeof a['amount'] === 'number' ? a['amount'] : amount,
      canRecoverTax: a['canRecoverTax'] === true,
    }));
    const status = giftAid?.['claimed'] === true ? 'ClaimedElsewhere' : giftAid?.['addDeclaration'] === true ? 'Claimable' : 'DeclarationMissing';
    const payment: Json = {
      transactionId: id,
      constituentId: Number(b['constituentId']),
      amount,
      currency: typeof b['currency'] === 'string' ? b['currency'] : 'GBP',
      paymentMethod: typeof b['paymentMethod'] === 'string' ? b['paymentMethod'] : 'Card',
      transactionDate: typeof b['transactionDate'] === 'string' ? b['transactionDate'] : now.slice(0, 10),
      giftAidStatusDetails: { status, ...(giftAid?.['claimed'] === true ? { amountClaimed: giftAid['amountClaimed'] ?? null } : {}) },
      dateAdded: now,
      dateChanged: now,
    };
    const trackingCodes: Json = Object.fromEntries(UTM.map((name) => [name, typeof b[name] === 'string' ? b[name] : null]));
    store.createdPayments.set(id, { payment, allocations, trackingCodes });
    ctx.rule({ seed: '001', section: '4' }, 'the full payment and a Location header, without mainContactConstituentId or giftAidDeclarationId');
    ctx.choice('fundraising-conventions');
    ctx.json(201, { ...payment, allocations }, { location: `${ctx.origin}/v1/transactions/${id}` });
  });
}
