// What the contracts name for each paging style: the headers and body fields a page of that style
// carries (seed 000 §4.2's Response column, seed 002's header table). A style whose names are not
// published (generic: the fundraising lists) or that is not paged names nothing, so nothing can be
// missing. BIDWHouse's list is "fact-specific" and CustomerAsset's collection "operation-specific":
// only the names the contract fixes are listed.
import type { PagingStyleId, SeedRef } from '../catalog';

export interface PagingNames {
  readonly headers: readonly string[];
  readonly fields: readonly string[];
  readonly source: SeedRef;
}

const s42: SeedRef = { seed: '000', section: '4.2' };

export const PAGING_CONTRACT: Readonly<Partial<Record<PagingStyleId, PagingNames>>> = {
  'page-number': { headers: [], fields: ['PageNumber', 'PageSize', 'TotalOrders', 'Orders'], source: s42 },
  'page-headers': {
    headers: ['X-Pagination-Page', 'X-Pagination-Per-Page', 'X-Pagination-Total-Pages', 'X-Pagination-Total-Results'],
    fields: [],
    source: { seed: '002', section: 'Endpoints' },
  },
  'offset-remaining': { headers: [], fields: ['_Leads', 'Remaining'], source: s42 },
  'batch-cursor': { headers: [], fields: ['BatchID', 'Remaining'], source: s42 },
  'export-ordinal': { headers: [], fields: ['Result', 'TableName'], source: s42 },
};
