// Redact, then cut. A text the product shows short (a failing page's body in the failure line, an
// assertion's actual value, a business error's detail, a request's body in a paging doubt) is cut only
// after the Redactor has seen it whole: a cut made first can end inside a secret, and the first part of a
// secret is not the secret the Redactor knows, so it would be printed. So nothing cuts a shown text
// itself: `excerpt` marks where the cut goes (the text kept whole, up to a bound, behind a mark that holds
// the length to show) and the Redactor (redact.ts `text`) makes every marked cut after it has redacted
// the text, whoever holds it. The mark
// carries this process's random nonce, so a server's text cannot forge one (nor can it reach the marks'
// characters: `excerpt` takes them out of what it quotes).
import { randomBytes } from 'node:crypto';

const OPEN = '\uE000';
/** The character every cut mark starts with (a text without it has no cut to make). */
export const CUT_MARK = OPEN;
const SEP = '\uE001';
const CLOSE = '\uE002';
const MARK_CHARS = /[\uE000-\uE002]/g;
const NONCE = randomBytes(6).toString('hex');
/** Kept of a text behind a mark: a failing page's body can be megabytes; a secret is never this long. */
const KEPT = 64 * 1024;
/** Of a text kept only up to KEPT, this much of its end is never shown (a secret cut by KEPT is in it). */
const END_GUARD = 16 * 1024;
const MARKED = new RegExp(`${OPEN}${NONCE}(\\d+)(b?)${SEP}([^${CLOSE}]*)(?:${CLOSE}|$)`, 'g');

/** A text flattened to one line, to be shown as its first `max` characters once redacted. */
export function excerpt(text: string, max: number): string {
  return cutShown(text.replace(/\s+/g, ' ').trim(), max);
}

/** A text to be shown as its first `max` characters once redacted (the cut marked, not made). */
export function cutShown(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = text.replace(MARK_CHARS, '\uFFFD');
  const bounded = kept.length > KEPT;
  return `${OPEN}${NONCE}${max}${bounded ? 'b' : ''}${SEP}${bounded ? kept.slice(0, KEPT) : kept}${CLOSE}`;
}

/** Every mark of `excerpt` in a redacted text, cut to what it shows (Redactor.text's last step). */
export function cutExcerpts(text: string): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(MARKED, (_whole, max: string, bounded: string, kept: string) => {
    const shown = Math.min(Number(max), bounded ? Math.max(0, kept.length - END_GUARD) : kept.length);
    return shown < kept.length ? `${kept.slice(0, shown)}…` : kept;
  });
}
