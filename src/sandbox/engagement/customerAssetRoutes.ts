// POST /api/CustomerAsset/GetAssets (representative operation, path inferred), batch-cursor style
// (seed 000 §4.2 rule 4). Body {BatchID, BatchSize}. A blank BatchID starts a walk; every answer
// carries a new opaque BatchID that the client must send back to continue, and Remaining (assets after
// this batch). A BatchID the sandbox never issued → HTTP 400 with Error. Re-sending an already used
// BatchID replays that batch (so a failed batch can be retried).
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';
import { type EngagementData, assetJson, rowChunks } from './data';

export const ASSET_DEFAULT_BATCH = 500;
export const ASSET_MAX_BATCH = 5000;
const MAX_CURSORS = 10_000;

interface Cursor { readonly position: number; readonly ordinal: number }

export function addCustomerAssetRoutes(router: Router, auth: EngagementAuth, data: EngagementData): void {
  const cursors = new Map<string, Cursor>();
  const issue = (cursor: Cursor): string => {
    const id = randomBytes(12).toString('base64url');
    cursors.set(id, cursor);
    if (cursors.size > MAX_CURSORS) cursors.delete(cursors.keys().next().value as string);
    return id;
  };

  router.post('/api/CustomerAsset/GetAssets', async (ctx: RequestContext) => {
    if (!auth.authorize(ctx, 'CustomerAsset/GetAssets')) return;
    ctx.choice('inferred-paths');
    ctx.rule({ seed: '000', section: '4.2' }, 'continue with the BatchID returned by the previous call');
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Record<string, unknown> : {};
    const batchId = b['BatchID'];
    const size = b['BatchSize'] ?? ASSET_DEFAULT_BATCH;
    if (!Number.isInteger(size) || (size as number) < 1) {
      ctx.json(400, { BatchID: null, Remaining: 0, Assets: [], Error: 'BatchSize must be a positive integer.' });
      return;
    }
    const batchSize = Math.min(size as number, ASSET_MAX_BATCH);
    let cursor: Cursor | undefined;
    if (batchId === undefined || batchId === null || batchId === '') cursor = { position: 0, ordinal: 1 };
    else if (typeof batchId === 'string') cursor = cursors.get(batchId);
    if (!cursor) {
      ctx.json(400, { BatchID: null, Remaining: 0, Assets: [], Error: `Invalid BatchID '${String(batchId)}': send the BatchID returned by the previous call, or none to start.` });
      return;
    }
    if (await ctx.pageFault('batch-cursor', cursor.ordinal)) return;
    const end = Math.min(data.assets, cursor.position + batchSize);
    const next = issue({ position: end, ordinal: cursor.ordinal + 1 });
    const from = cursor.position;
    await ctx.stream(200, (function* () {
      yield `{"BatchID":"${next}","Remaining":${data.assets - end},"Assets":[`;
      yield* rowChunks(from, end, (i) => assetJson(data, i));
      yield ']}';
    })());
  });
}
