// A walk's verdict in words, said the same wherever the editor says it: the paging bar after "All pages",
// the notification when the panel is hidden, the History view's description and tooltip, and a History
// entry reopened in the panel. Full sentences, plurals by count, counts in the user's locale (formatCount).
// DOM-free and vscode-free.
import type { WalkVerdictKind } from '../history/model';
import { formatCountOf } from './format';

/** What a walk came to: its verdict, what it kept, and why it ended (without the counts). */
export interface WalkFacts {
  readonly verdict: WalkVerdictKind;
  readonly pages: number;
  readonly rows: number;
  readonly reason?: string;
}

/** The parts of the walker's WalkResult the words need (structural: the engine's type may grow). */
export interface WalkOutcomeFacts {
  readonly outcome: string;
  readonly verdict: WalkVerdictKind;
  readonly message: string;
  readonly pages: number;
  readonly rows: number;
  readonly checkpoint: { readonly endReason?: string };
  readonly failure?: { readonly page: number; readonly message: string };
}

/** Why the walk ended, without the counts the walker's message repeats: "Remaining = 0", "page 3: timed out". */
export function walkReason(walk: WalkOutcomeFacts): string {
  if (walk.verdict === 'complete') return walk.checkpoint.endReason ?? 'the last page was reached';
  if (walk.failure) return `page ${walk.failure.page}: ${walk.failure.message}`;
  if (walk.outcome === 'stopped') return 'stopped by you';
  if (walk.outcome === 'max-pages') return 'the page limit was reached, not the end of the data';
  return walk.message;
}

/** The walk as WalkFacts, for History and the panel. */
export function walkFactsOf(walk: WalkOutcomeFacts): WalkFacts {
  return { verdict: walk.verdict, pages: walk.pages, rows: walk.rows, reason: walkReason(walk) };
}

/** "10 pages and 237 rows", "1 page and 1 row". */
export function pagesAndRows(pages: number, rows: number): string {
  return `${formatCountOf(pages, 'page')} and ${formatCountOf(rows, 'row')}`;
}

/** Short, for a list: "complete, 10 pages", "failed at page 3". */
export function walkVerdictShort(walk: WalkFacts): string {
  const pages = formatCountOf(walk.pages, 'page');
  switch (walk.verdict) {
    case 'complete': return `all pages, ${pages}`;
    case 'cut-short': return `cut short, ${pages}`;
    case 'inconsistent': return `inconsistent, ${pages}`;
    case 'failed': return `failed, ${pages} kept`;
  }
}

/** One or two full sentences: what the walk came to, what it kept, and why. */
export function walkSentence(walk: WalkFacts): string {
  const kept = pagesAndRows(walk.pages, walk.rows);
  const why = walk.reason ? ` ${capitalised(walk.reason)}.` : '';
  switch (walk.verdict) {
    case 'complete': return `All pages read: ${kept}.${why}`;
    case 'cut-short': return `The walk was cut short after ${kept}.${why}`;
    case 'inconsistent': return `The walk stopped: the server's paging contradicted itself. ${capitalised(kept)} are kept.${why}`;
    case 'failed': return `The walk failed; ${kept} are kept.${why}`;
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, '');
}
