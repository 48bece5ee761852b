// What a paging strategy says about itself, as data, so that a paging loop in another language can be
// generated from the strategy rather than from a second description of the style (src/core/codegen/
// paging/). Each strategy fills it from the same options and constants its own functions use; the
// words are the contract's rule in the product's words, cited as the catalog writes citations.
import type { PagingStyleId } from '../catalog/model';
import type { RowsPlace } from './rows';

/** How the next request is made from the page just kept. */
export type LoopAdvance =
  /** Query `param` = the page the body reports (`servedField`) + 1; stop once page × size covers the total. */
  | { readonly kind: 'page-number'; readonly param: string; readonly sizeParam: string; readonly servedField: string; readonly sizeField: string; readonly totalField: string; readonly outOfRangeFlag: string }
  /** Query `param` = X-Pagination-Page + 1 up to X-Pagination-Total-Pages. */
  | { readonly kind: 'page-headers'; readonly param: string; readonly pageHeader: string; readonly totalPagesHeader: string }
  /** Body `field` += rows received; only an empty page ends it. */
  | { readonly kind: 'offset'; readonly field: string }
  /** Body `field` = the value the response returned, verbatim; `remainingField` = 0 or an empty batch ends it. */
  | { readonly kind: 'cursor'; readonly field: string; readonly remainingField: string }
  /** Body `field` = ordinal + 1 (1 first) with the table the first response named; a short page is the last. */
  | { readonly kind: 'ordinal'; readonly field: string; readonly tableField: string; readonly pageRows: number }
  /** The same call again; an error is retried, never the end. */
  | { readonly kind: 'same-call' };

/** A fact of the first page that must hold over the walk: a body field or a response header. */
export interface LoopFact {
  readonly from: 'body' | 'header';
  readonly name: string;
}

export interface PagingLoop {
  readonly style: PagingStyleId;
  /** As the catalog writes citations (`seed 000 §4.2 rule 5`); surfaces convert it (src/core/reference). */
  readonly citation: string;
  /** The rule the loop follows, one line each, in the product's words. */
  readonly rule: readonly string[];
  /** Where a page's rows are: the place the strategy's own rows rule looks (rows.ts `rowsRule(...).place`). */
  readonly rows: RowsPlace;
  readonly advance: LoopAdvance;
  readonly facts: readonly LoopFact[];
  /** Fields the first request gets when it lacks them (export ordinal: OFFSET 1). */
  readonly firstRequest?: Readonly<Record<string, number>>;
}
