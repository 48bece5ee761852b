// Time for the date dynamic variables ({{$timestamp -1 d}}, {{$datetime "DD-MM-YYYY" 2 h}}): an offset
// written `<integer> <unit>` as REST Client and httpYac take it (units y Q M w d h m s ms; y, Q and M move
// by calendar months, the day clamped to the month's end), and the date formats they accept: rfc1123,
// iso8601 or a quoted pattern of Day.js tokens (YYYY MM DD HH mm ss SSS ...; text in [brackets] as is).
// $datetime is UTC; $localDatetime is the machine's time zone.

export const OFFSET_UNITS = ['y', 'Q', 'M', 'w', 'd', 'h', 'm', 's', 'ms'] as const;
type OffsetUnit = (typeof OFFSET_UNITS)[number];

export interface Offset {
  readonly amount: number;
  readonly unit: OffsetUnit;
}

const FIXED_MS: Partial<Record<OffsetUnit, number>> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const MONTHS_OF: Partial<Record<OffsetUnit, number>> = { y: 12, Q: 3, M: 1 };

/** `-1 d` → an offset; '' → none; anything else → the words of what is wrong. */
export function parseOffset(text: string): Offset | undefined | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const match = /^([+-]?\d{1,9})\s+(\w+)$/.exec(trimmed);
  const unit = match?.[2];
  if (!match || !OFFSET_UNITS.includes(unit as OffsetUnit)) {
    return { problem: `the offset '${trimmed}' is not '<integer> <unit>' with a unit among ${OFFSET_UNITS.join(' ')} (e.g. -1 d)` };
  }
  return { amount: Number(match[1]), unit: unit as OffsetUnit };
}

/** `ms` moved by the offset: months in calendar terms (in UTC, or local time when `local`). */
export function addOffset(ms: number, offset: Offset | undefined, local = false): number {
  if (!offset) return ms;
  const fixed = FIXED_MS[offset.unit];
  if (fixed !== undefined) return ms + offset.amount * fixed;
  const months = offset.amount * (MONTHS_OF[offset.unit] ?? 0);
  const date = new Date(ms);
  const parts = fields(date, local);
  const target = parts.month + months;
  const year = parts.year + Math.floor(target / 12);
  const month = ((target % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(parts.day, lastDay);
  if (local) return new Date(year, month, day, parts.hour, parts.minute, parts.second, parts.ms).getTime();
  return Date.UTC(year, month, day, parts.hour, parts.minute, parts.second, parts.ms);
}

interface Fields { year: number; month: number; day: number; weekday: number; hour: number; minute: number; second: number; ms: number; offsetMinutes: number }

function fields(date: Date, local: boolean): Fields {
  return local
    ? { year: date.getFullYear(), month: date.getMonth(), day: date.getDate(), weekday: date.getDay(), hour: date.getHours(), minute: date.getMinutes(), second: date.getSeconds(), ms: date.getMilliseconds(), offsetMinutes: -date.getTimezoneOffset() }
    : { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate(), weekday: date.getUTCDay(), hour: date.getUTCHours(), minute: date.getUTCMinutes(), second: date.getUTCSeconds(), ms: date.getUTCMilliseconds(), offsetMinutes: 0 };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

function zone(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}${colon ? ':' : ''}${pad(Math.abs(minutes) % 60)}`;
}

const TOKENS: Readonly<Record<string, (f: Fields, ms: number) => string>> = {
  YYYY: (f) => pad(f.year, 4), YY: (f) => pad(f.year % 100),
  MMMM: (f) => MONTHS[f.month] ?? '', MMM: (f) => (MONTHS[f.month] ?? '').slice(0, 3), MM: (f) => pad(f.month + 1), M: (f) => String(f.month + 1),
  DD: (f) => pad(f.day), D: (f) => String(f.day),
  dddd: (f) => DAYS[f.weekday] ?? '', ddd: (f) => (DAYS[f.weekday] ?? '').slice(0, 3), dd: (f) => (DAYS[f.weekday] ?? '').slice(0, 2), d: (f) => String(f.weekday),
  HH: (f) => pad(f.hour), H: (f) => String(f.hour),
  hh: (f) => pad(f.hour % 12 || 12), h: (f) => String(f.hour % 12 || 12),
  mm: (f) => pad(f.minute), m: (f) => String(f.minute),
  ss: (f) => pad(f.second), s: (f) => String(f.second),
  SSS: (f) => pad(f.ms, 3),
  A: (f) => (f.hour < 12 ? 'AM' : 'PM'), a: (f) => (f.hour < 12 ? 'am' : 'pm'),
  ZZ: (f) => zone(f.offsetMinutes, false), Z: (f) => zone(f.offsetMinutes, true),
  X: (_f, ms) => String(Math.floor(ms / 1000)), x: (_f, ms) => String(ms),
};
const TOKEN_PATTERN = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x/g;

/** `ms` written with a Day.js-style pattern. */
export function formatDate(ms: number, pattern: string, local: boolean): string {
  const f = fields(new Date(ms), local);
  return pattern.replace(TOKEN_PATTERN, (token, literal: string | undefined) => literal ?? TOKENS[token]?.(f, ms) ?? token);
}

/** rfc1123 and iso8601 as REST Client writes them, in UTC or local time. */
export function namedFormat(ms: number, format: 'rfc1123' | 'iso8601', local: boolean): string {
  if (!local) return format === 'rfc1123' ? new Date(ms).toUTCString() : new Date(ms).toISOString();
  return formatDate(ms, format === 'rfc1123' ? 'ddd, DD MMM YYYY HH:mm:ss ZZ' : 'YYYY-MM-DDTHH:mm:ssZ', true);
}
