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

/** The user's locale, once a surface knows it (the panel: its page's language); its format is made on first use. */
let locale: string | undefined;
/** The format of `locale`: null until first asked (making one loads the runtime's locale data, ~20 ms; not at activation). */
let localeFormat: Intl.NumberFormat | undefined | null = null;

/**
 * Counts from now on in `locale`'s format ("100,000" in en-US, "100.000" in de), every count of the surface
 * alike; undefined goes back to the neutral default. A locale the runtime does not know keeps the default.
 */
export function useNumberLocale(wanted: string | undefined): void {
  locale = wanted;
  localeFormat = null;
}

function numberFormat(): Intl.NumberFormat | undefined {
  if (localeFormat !== null) return localeFormat;
  try {
    localeFormat = locale ? new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }) : undefined;
  } catch {
    localeFormat = undefined;
  }
  return localeFormat;
}

/** 100000 → "100 000" (a thin space: the default where no locale is known, e.g. the CLI), or the user's locale's format. */
export function formatCount(n: number): string {
  const format = numberFormat();
  if (format) return format.format(Math.round(n));
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
