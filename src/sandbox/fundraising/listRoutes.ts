// /v1/lists (list definitions, seed 001 §4) and /v1/lookup-types (language filter matches the
// language code exactly: "en" does not match "en-GB").
import type { Router } from '../shared/router';
import type { FundraisingAuth } from './auth';
import { FIRST_LIST_ID, type Json, LOOKUP_TYPES } from './data';
import { problem, readPaging, sendPage } from './listPaging';
import type { FundraisingStore } from './store';

export function addListRoutes(router: Router, auth: FundraisingAuth, store: FundraisingStore): void {
  router.post('/v1/lists', async (ctx) => {
    if (!auth.authorize(ctx, 'write')) return;
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Json : undefined;
    const name = typeof b?.['name'] === 'string' ? b['name'].trim() : '';
    if (!b || name === '') return problem(ctx, 400, 'Bad Request', 'name is required');
    const id = FIRST_LIST_ID + store.lists.size;
    const definition: Json = {
      listDefinitionId: id,
      name,
      listType: typeof b['listType'] === 'string' ? b['listType'] : 'Constituent',
      description: typeof b['description'] === 'string' ? b['description'] : null,
      dateAdded: new Date().toISOString(),
    };
    store.lists.set(id, definition);
    ctx.choice('fundraising-conventions');
    ctx.json(201, definition, { location: `${ctx.origin}/v1/lists/${id}` });
  });

  router.get('/v1/lists/{listDefinitionId}', (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const definition = store.lists.get(Number(ctx.params['listDefinitionId']));
    if (!definition) return problem(ctx, 404, 'Not Found', `no list definition ${ctx.params['listDefinitionId'] ?? ''}`);
    ctx.json(200, definition);
  });

  router.get('/v1/lookup-types', async (ctx) => {
    if (!auth.authorize(ctx, 'read')) return;
    const paging = readPaging(ctx);
    if (!paging) return;
    if (await ctx.pageFault('generic', Math.floor(paging.offset / paging.limit) + 1)) return;
    const language = ctx.query.get('language');
    const matches = language === null ? LOOKUP_TYPES : LOOKUP_TYPES.filter((t) => t['language'] === language);
    sendPage(ctx, matches.length, matches.slice(paging.offset, paging.offset + paging.limit), paging);
  });
}
