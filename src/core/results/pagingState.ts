// The paging bar's state from the paging engine's words: style labels for people, and a walk's outcome
// turned into "can it continue" and "why it ended". Structural inputs, so the engine's types can evolve.
import type { PagingStyleId } from '../catalog/model';
import type { PagingState } from '../../protocol/webviewMessages';

export const PAGING_STYLE_LABELS: Readonly<Record<PagingStyleId, string>> = {
  'page-number': 'Page number',
  'page-headers': 'Page headers (X-Pagination-*)',
  'offset-remaining': 'Offset + Remaining',
  'batch-cursor': 'Batch cursor',
  'export-ordinal': 'Export ordinal',
  'stateful-extraction': 'Stateful extraction',
  generic: 'Generic paging',
  none: 'Not paged',
};

export function pagingLabel(style: string): string {
  return (PAGING_STYLE_LABELS as Readonly<Record<string, string>>)[style] ?? style;
}

export function pagingState(args: {
  readonly style: string;
  readonly pages: number;
  readonly rows: number;
  readonly canContinue: boolean;
  readonly walking?: boolean;
  readonly endReason?: string;
  readonly verdict?: string;
}): PagingState {
  return {
    style: args.style,
    styleLabel: pagingLabel(args.style),
    pages: args.pages,
    rows: args.rows,
    canContinue: args.canContinue,
    walking: args.walking ?? false,
    ...(args.endReason ? { endReason: args.endReason } : {}),
    ...(args.verdict ? { verdict: args.verdict } : {}),
  };
}

/** The bar's state for a walk the exchange knows (core/run/exchange.ts PagingCursor), between pages or after a walk. */
export function pagingStateOfCursor(
  cursor: {
    readonly plan: { readonly style: string }; readonly more: boolean; readonly stopped?: string;
    readonly checkpoint: { readonly pages: number; readonly rows: number; readonly done: boolean; readonly endReason?: string };
  },
  walking: boolean,
): PagingState {
  const { pages, rows, done, endReason } = cursor.checkpoint;
  const why = done ? `complete: ${endReason ?? 'last page reached'}` : cursor.stopped ?? (!cursor.more && endReason ? endReason : undefined);
  return pagingState({ style: cursor.plan.style, pages, rows, canContinue: cursor.more, walking, ...(why ? { endReason: why } : {}) });
}
