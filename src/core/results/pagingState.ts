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
}): PagingState {
  return {
    style: args.style,
    styleLabel: pagingLabel(args.style),
    pages: args.pages,
    rows: args.rows,
    canContinue: args.canContinue,
    walking: args.walking ?? false,
    ...(args.endReason ? { endReason: args.endReason } : {}),
  };
}

const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  complete: 'last page reached',
  stopped: 'stopped; can resume',
  'max-pages': 'page limit reached; can resume',
  failed: 'failed; pages kept, can resume',
};

/** The walkEnded payload for a finished walk (walker.ts WalkResult): every outcome but "complete" can resume. */
export function walkEnd(
  style: string,
  result: { readonly outcome: string; readonly message: string; readonly pages: number; readonly rows: number },
  file?: string,
): { ok: boolean; message: string; paging: PagingState; file?: string } {
  return {
    ok: result.outcome !== 'failed',
    message: result.message,
    paging: pagingState({ style, pages: result.pages, rows: result.rows, canContinue: result.outcome !== 'complete', endReason: OUTCOME_WORDS[result.outcome] ?? result.outcome }),
    ...(file ? { file } : {}),
  };
}
