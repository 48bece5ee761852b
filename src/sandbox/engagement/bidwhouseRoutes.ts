// POST /api/BIDWHouse/GetFactTransactions (representative operation, path inferred), stateful
// extraction (seed 000 §4.2 rule 7, §8). Body {PageSize} (default 5000; above 100 000 capped).
// Published (§4.2 rule 7): the extraction is stateful, not page-numbered, and an error is not
// end-of-data. The position is kept server-side per access token: the same call again gives the next
// rows. Every Kth call of a token (K = bidwTransientEvery, 0 = never) answers a transient HTTP 500
// that does NOT advance the position. A new token starts a new extraction.
// Sandbox choices: extraction-end — how the end shows is not published; the sandbox ends with an empty
// FactTransactions list (labelled on that answer); inferred-paths — the path is not published.
import { BIDW_DEFAULT_PAGE_SIZE } from '../../core/catalog/schemas/engagementPaging';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import { EngagementAuth } from './auth';
import { type EngagementData, factJson, rowChunks } from './data';

// The default is published (seed 000 §8), so it comes from the catalog. "Extendable to 100000" is
// how the contract describes it; capping there is the sandbox's reading.
const FACT_DEFAULT_PAGE_SIZE = BIDW_DEFAULT_PAGE_SIZE;
const FACT_MAX_PAGE_SIZE = 100_000;

interface Extraction { position: number; calls: number; pages: number }

export function addBidwhouseRoutes(router: Router, auth: EngagementAuth, data: EngagementData, transientEvery: number): void {
  const extractions = new Map<string, Extraction>();

  router.post('/api/BIDWHouse/GetFactTransactions', async (ctx: RequestContext) => {
    if (!auth.authorize(ctx, 'BIDWHouse/GetFactTransactions')) return;
    ctx.choice('inferred-paths');
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Record<string, unknown> : {};
    const size = b['PageSize'] ?? FACT_DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(size) || (size as number) < 1) {
      ctx.json(400, { Message: 'PageSize must be a positive integer.' });
      return;
    }
    const pageSize = Math.min(size as number, FACT_MAX_PAGE_SIZE);
    const token = EngagementAuth.tokenOf(ctx);
    let state = extractions.get(token);
    if (!state) {
      state = { position: 0, calls: 0, pages: 0 };
      extractions.set(token, state);
    }
    state.calls++;
    if (transientEvery > 0 && state.calls % transientEvery === 0) {
      ctx.rule({ seed: '000', section: '4.2' }, 'an extraction error is not end-of-data (position kept)');
      ctx.errorJson(500, {
        Message: 'An error has occurred.',
        ExceptionMessage: 'Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
      });
      return;
    }
    if (await ctx.pageFault('stateful-extraction', state.pages + 1)) return;
    const from = state.position;
    const to = Math.min(data.facts, from + pageSize);
    state.position = to;
    state.pages++;
    if (to === from) ctx.choice('extraction-end');
    await ctx.stream(200, (function* () {
      yield '{"FactTransactions":[';
      yield* rowChunks(from, to, (i) => factJson(data, i));
      yield ']}';
    })());
  });
}
