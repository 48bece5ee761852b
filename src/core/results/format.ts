// Human-readable sizes and durations for the panel and the CLI. Binary units (1 KB = 1024 B), as editors show.

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return '< 1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** The user's number format, once a surface knows the user's locale (the panel: its page's language). */
let localeFormat: Intl.NumberFormat | undefined;

/**
 * Counts from now on in `locale`'s format ("100,000" in en-US, "100.000" in de), every count of the surface
 * alike; undefined goes back to the neutral default. A locale the runtime does not know keeps the default.
 */
export function useNumberLocale(locale: string | undefined): void {
  try {
    localeFormat = locale ? new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }) : undefined;
  } catch {
    localeFormat = undefined;
  }
}

/** 100000 → "100 000" (a thin space: the default where no locale is known, e.g. the CLI), or the user's locale's format. */
export function formatCount(n: number): string {
  if (localeFormat) return localeFormat.format(Math.round(n));
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** A count with its noun: "1 row", "100 000 rows", "3 operations". */
export function formatCountOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

export function formatRows(n: number): string {
  return formatCountOf(n, 'row');
}

export function formatRate(rowsPerSecond: number): string {
  if (!Number.isFinite(rowsPerSecond) || rowsPerSecond <= 0) return '—';
  return `${formatCount(rowsPerSecond)} rows/s`;
}
