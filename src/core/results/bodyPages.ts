// A body too large to hold, shown a page at a time from its spill file. Page k starts at the first cut at or
// after k × PAGE_BYTES where JSON allows one (after a comma, a bracket or a line break, outside a string),
// found by scanning forward from the last cut known (a jump to the last page scans the file once; only the
// cuts are kept). A cut outside a string never splits a value, so a secret-named field and its value are on
// one page: each page is redacted by the panel's rules for a body shown as text (redactBodyText, then the
// known values), after being indented from its depth at the cut when the body is JSON.
import type { BodyView } from '../../protocol/webviewMessages';
import { formatBytes, formatCount } from './format';
import { redactBodyText } from './redaction';
import type { SpillStore } from './spillStore';

export const PAGE_BYTES = 256 * 1024;

interface Cut {
  readonly at: number;
  readonly depth: number;
  readonly inString: boolean;
  readonly escaped: boolean;
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, NEWLINE = 0x0a;
const OPENS = new Set([0x5b, 0x7b]);
const CLOSES = new Set([0x5d, 0x7d]);

export class BodyPages {
  /** cuts[k]: where page k starts and the scanner's state there. */
  private readonly cuts: Cut[] = [{ at: 0, depth: 0, inString: false, escaped: false }];

  constructor(
    private readonly store: SpillStore,
    private readonly json: boolean,
    private readonly redact: (text: string) => string,
    private readonly contentType = '',
  ) {}

  get pageCount(): number {
    return Math.max(1, Math.ceil(this.store.size / PAGE_BYTES));
  }

  /** Page `index` (clamped) as the raw view shows it: indented when JSON, redacted. */
  async page(index: number): Promise<BodyView> {
    const k = Math.min(Math.max(0, index), this.pageCount - 1);
    const from = await this.cutAt(k);
    const to = k + 1 < this.pageCount ? await this.cutAt(k + 1) : { at: this.store.size, depth: 0, inString: false, escaped: false };
    const text = (await this.store.read(from.at, to.at)).toString('utf8');
    const shown = this.redact(redactBodyText(this.json && !from.inString ? indentFrom(text, from.depth) : text, this.contentType));
    const note = `Bytes ${formatCount(from.at)}–${formatCount(to.at)} of ${formatBytes(this.store.size)}, read from disk a page at a time; search covers this page.`;
    return { text: shown, language: this.json ? 'json' : 'text', truncated: true, totalChars: this.store.size, note, page: { index: k, count: this.pageCount } };
  }

  private async cutAt(k: number): Promise<Cut> {
    while (this.cuts.length <= k) {
      const last = this.cuts[this.cuts.length - 1]!;
      this.cuts.push(await this.nextCut(last, this.cuts.length * PAGE_BYTES));
    }
    return this.cuts[k]!;
  }

  /** The first cut at or after `target`, scanning from `from`; a forced one at the next page's start when none. */
  private async nextCut(from: Cut, target: number): Promise<Cut> {
    let { depth, inString, escaped } = from;
    const limit = Math.min(this.store.size, target + PAGE_BYTES - 1);
    for (let base = from.at; base < limit;) {
      const chunk = await this.store.read(base, Math.min(limit, base + (1 << 20)));
      if (chunk.length === 0) break;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
          continue;
        }
        if (this.json && byte === QUOTE) inString = true;
        else if (OPENS.has(byte)) depth++;
        else if (CLOSES.has(byte)) depth = Math.max(0, depth - 1);
        const at = base + i + 1;
        if (at >= target && (byte === COMMA || byte === NEWLINE || OPENS.has(byte))) return { at, depth, inString: false, escaped: false };
      }
      base += chunk.length;
    }
    // No cut in a whole page (one long string): cut at a character's start, the string state carried.
    let at = Math.min(this.store.size, target + PAGE_BYTES - 1);
    const probe = await this.store.read(at, Math.min(this.store.size, at + 4));
    for (let i = 0; i < probe.length && (probe[i]! & 0xc0) === 0x80; i++) at++;
    return { at, depth, inString, escaped };
  }
}

/** JSON text indented two spaces a level, starting `depth` levels in (whitespace outside strings redone). */
export function indentFrom(text: string, depth: number): string {
  // The page's first line sits at its depth, as the lines after it do.
  const out: string[] = ['  '.repeat(depth)];
  let level = depth;
  let inString = false;
  let escaped = false;
  const newline = (): void => void out.push('\n', '  '.repeat(Math.max(0, level)));
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out.push(c);
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '"') inString = true;
    if (c === '{' || c === '[') {
      level++;
      out.push(c);
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === '}' || text[j] === ']') continue;
      newline();
    } else if (c === '}' || c === ']') {
      level--;
      if (out[out.length - 1] !== '{' && out[out.length - 1] !== '[') newline();
      out.push(c);
    } else if (c === ',') {
      out.push(c);
      newline();
    } else out.push(c === ':' ? ': ' : c);
  }
  return out.join('');
}
