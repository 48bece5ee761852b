// The words of a walk's progress and of its end, the same in the CLI's progress line, the panel's paging
// bar and the CLI's summary line: rows and pages a second, the time left where the server says how many
// pages there are, and the waits on the server.
//   page 12 of 80 · 6 000 rows · 41 pages/s · 2 050 rows/s · about 2 s left · rate limited: waiting 12 s
//   80 pages in 2.10 s · 38 pages/s · 19 000 rows/s · waited 2 times, 3 s
import { humanDuration } from '../auth/timeLeft';
import { formatCount, formatDuration, formatRate, formatRows } from './format';

export interface WalkFigures {
  readonly pages: number;
  readonly rows: number;
  readonly rowsPerSecond: number;
  readonly pagesPerSecond?: number;
  readonly totalPages?: number;
  readonly timeLeftMs?: number;
  readonly waits?: number;
  readonly waitedMs?: number;
  /** Why the walk waits right now ("rate limited: waiting 12 s"). */
  readonly waiting?: string;
}

/** "41 pages/s", "0.5 pages/s", "0.04 pages/s"; '' when nothing was kept yet. */
export function formatPagesRate(pagesPerSecond: number | undefined): string {
  if (pagesPerSecond === undefined || !Number.isFinite(pagesPerSecond) || pagesPerSecond <= 0) return '';
  const value = pagesPerSecond >= 10 ? formatCount(pagesPerSecond) : pagesPerSecond.toFixed(pagesPerSecond < 0.1 ? 2 : 1).replace(/\.0+$/, '');
  return `${value} page${value === '1' ? '' : 's'}/s`;
}

function pagesPart(pages: number, totalPages: number | undefined): string {
  if (totalPages !== undefined && totalPages > 0) return `page ${formatCount(pages)} of ${formatCount(totalPages)}`;
  return `${formatCount(pages)} page${pages === 1 ? '' : 's'}`;
}

function waitsPart(waits: number | undefined, waitedMs: number | undefined): string {
  if (!waits) return '';
  return `waited ${waits === 1 ? 'once' : `${formatCount(waits)} times`}, ${humanDuration(waitedMs ?? 0)}`;
}

/** The progress of a walk under way. */
export function walkProgressWords(p: WalkFigures): string {
  const rate = formatRate(p.rowsPerSecond);
  const parts = [
    pagesPart(p.pages, p.totalPages),
    formatRows(p.rows),
    formatPagesRate(p.pagesPerSecond),
    rate === '—' ? '' : rate,
    p.timeLeftMs !== undefined && p.pages > 0 ? `about ${humanDuration(p.timeLeftMs)} left` : '',
    p.waiting ?? waitsPart(p.waits, p.waitedMs),
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The end of a walk: pages, duration, rates and waits (its verdict and rows are said beside it). */
export function walkSummaryWords(w: WalkFigures & { readonly elapsedMs: number }): string {
  const rate = formatRate(w.rowsPerSecond);
  return [
    `${formatCount(w.pages)} page${w.pages === 1 ? '' : 's'} in ${formatDuration(w.elapsedMs)}`,
    formatPagesRate(w.pagesPerSecond),
    rate === '—' ? '' : rate,
    waitsPart(w.waits, w.waitedMs),
  ].filter(Boolean).join(' · ');
}
