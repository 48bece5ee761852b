// One strategy per paging style id.
import type { PagingStyleId } from '../../catalog/model';
import { DEFAULT_RETRY_POLICY, type PagingStrategy, type RetryPolicy } from '../types';
import { batchCursorStrategy } from './batchCursor';
import { exportOrdinalStrategy } from './exportOrdinal';
import { genericStrategy } from './generic';
import { singlePageStrategy } from './none';
import { offsetRemainingStrategy } from './offsetRemaining';
import { pageHeadersStrategy } from './pageHeaders';
import { pageNumberStrategy } from './pageNumber';
import { statefulExtractionStrategy } from './statefulExtraction';

type Factory = (options: Readonly<Record<string, string>>, policy: RetryPolicy) => PagingStrategy;

const FACTORIES: Readonly<Record<PagingStyleId, Factory>> = {
  'page-number': pageNumberStrategy,
  'page-headers': pageHeadersStrategy,
  'offset-remaining': offsetRemainingStrategy,
  'batch-cursor': batchCursorStrategy,
  'export-ordinal': exportOrdinalStrategy,
  'stateful-extraction': statefulExtractionStrategy,
  generic: genericStrategy,
  none: singlePageStrategy,
};

export function createStrategy(
  style: PagingStyleId,
  options: Readonly<Record<string, string>> = {},
  policy: Partial<RetryPolicy> = {},
): PagingStrategy {
  return FACTORIES[style](options, { ...DEFAULT_RETRY_POLICY, ...policy });
}

export {
  batchCursorStrategy, exportOrdinalStrategy, genericStrategy, offsetRemainingStrategy, pageHeadersStrategy,
  pageNumberStrategy, singlePageStrategy, statefulExtractionStrategy,
};
