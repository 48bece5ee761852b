// /v1/constituents (seed 001 §2, §4): list (generic paging), create (201 + Location, the single-read
// shape with include=channelPreferences; a household or organisation also gets `mainContact`), read one
// with includes, and duplicate-check (matches carry constituentNumber).
import type { Router } from '../shared/router';
import type { FundraisingAuth } from './auth';
import { CONSTITUENT_INCLUDES, type Json, constituentInclude } from './data';
import { problem, readIncludes, readPaging, sendPage } from './listPaging';
import { nextConstituent } from './nextRelease';
import type { FundraisingStore } from './store';
import { scalarText } from '../../core/text/scalarText';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export function addConstituentRoutes(router: Router, auth: FundraisingAuth, store: FundraisingStore): void {
  router.get('/v1/constituents', async (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const paging = readPaging(ctx);
    if (!paging) return;
    if (await ctx.pageFault('generic', Math.floor(paging.offset / paging.limit) + 1)) return;
    const value: Json[] = [];
    const next = ctx.isOn('release-next');
    if (next) ctx.choice('release-next');
    for (let i = paging.offset; i < Math.min(store.constituentCount, paging.offset + paging.limit); i++) {
      const record = store.constituentAt(i);
      if (record) value.push(next ? nextConstituent(record) : record);
    }
    sendPage(ctx, store.constituentCount, value, paging);
  });

  router.get('/v1/constituents/{constituentId}', (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const includes = readIncludes(ctx, CONSTITUENT_INCLUDES);
    if (!includes) return;
    const record = store.constituentById(Number(ctx.params['constituentId']));
    if (!record) return problem(ctx, 404, 'Not Found', `no constituent ${ctx.params['constituentId'] ?? ''}`);
    ctx.json(200, withIncludes(store, record, includes));
  });

  router.post('/v1/constituents', async (ctx) => {
    if (!auth.authorize(ctx, 'write')) return;
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && isObject(body.value) ? body.value : undefined;
    if (!b) return problem(ctx, 400, 'Bad Request', 'the body must be a JSON object');
    const type = b['type'] ?? 'individual';
    if (type !== 'individual' && type !== 'household' && type !== 'organisation') {
      return problem(ctx, 400, 'Bad Request', 'type must be individual, household or organisation');
    }
    if (type === 'individual' && !text(b['lastName'])) return problem(ctx, 400, 'Bad Request', 'lastName is required for an individual');
    if (type !== 'individual' && !text(b['name'])) return problem(ctx, 400, 'Bad Request', `name is required for a ${type}`);
    const now = new Date().toISOString();
    const names = type === 'individual' ? { firstName: text(b['firstName']) ?? null, lastName: text(b['lastName']) } : { name: text(b['name']) };
    const created = store.addConstituent({ type, ...names, email: text(b['email']) ?? null, dateAdded: now, dateChanged: now });
    const answer: Json = withIncludes(store, created, ['channelPreferences']);
    if (type !== 'individual') {
      const main = isObject(b['mainContact']) ? b['mainContact'] : {};
      const contact = store.addConstituent({
        type: 'individual', firstName: text(main['firstName']) ?? null, lastName: text(main['lastName']) ?? `${String(names.name)} main contact`,
        email: text(main['email']) ?? null, dateAdded: now, dateChanged: now,
      });
      answer['mainContact'] = { constituentId: contact['constituentId'], constituentNumber: contact['constituentNumber'], firstName: contact['firstName'], lastName: contact['lastName'] };
    }
    ctx.choice('fundraising-conventions');
    ctx.json(201, answer, { location: `${ctx.origin}/v1/constituents/${String(created['constituentId'])}` });
  });

  router.post('/v1/constituents/duplicate-check', async (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && isObject(body.value) ? body.value : undefined;
    if (!b) return problem(ctx, 400, 'Bad Request', 'the body must be a JSON object');
    const email = text(b['email'])?.toLowerCase();
    const first = text(b['firstName'])?.toLowerCase();
    const last = text(b['lastName'])?.toLowerCase();
    if (!email && !last) return problem(ctx, 400, 'Bad Request', 'give email, or lastName (with firstName)');
    const matches: Json[] = [];
    for (let i = 0; i < Math.min(store.constituentCount, 200_000) && matches.length < 20; i++) {
      const c = store.constituentAt(i);
      if (!c) continue;
      const on: string[] = [];
      if (email && scalarText(c['email'] ?? '').toLowerCase() === email) on.push('email');
      if (last && scalarText(c['lastName'] ?? '').toLowerCase() === last && (!first || scalarText(c['firstName'] ?? '').toLowerCase() === first)) on.push('name');
      if (on.length > 0) {
        matches.push({ constituentId: c['constituentId'], constituentNumber: c['constituentNumber'], score: on.length === 2 ? 100 : on.includes('email') ? 90 : 60, matchedOn: on });
      }
    }
    ctx.json(200, { matches });
  });
}

function withIncludes(store: FundraisingStore, record: Json, includes: readonly string[]): Json {
  const out: Json = { ...record };
  for (const include of includes) out[include] = constituentInclude(store.data, record, include);
  return out;
}
