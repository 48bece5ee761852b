// A body too large to hold, shown a page at a time from its spill file. Page k starts at the first cut at or
// after k × PAGE_BYTES where JSON allows one (after a comma, a bracket or a line break, outside a string and
// never between a key and its value; in a form, after an `&` too), found by scanning forward from the last
// cut known (a jump to the last page scans the file once; only the cuts and the scanners' state there are
// kept). A JSON page has the whole value of every secret-named key masked (secretValues, from the state at
// its cut, so a value cut across pages stays masked), is indented from its depth at the cut; a form page
// that starts inside a secret-named field has the rest of its value masked (formFields, the same way); then
// each is redacted by the panel's rules for a body shown as text (redactBodyText, which alone serves a body
// not JSON or a form, then the known values). Redact, then
// cut (as ../text/excerpt.ts for the texts shown short): a page is redacted on its own, so no cut falls
// inside what the redaction masks (a known secret in any form, a credential pair): a cut whose
// neighbourhood redacts otherwise whole than in its two halves moves on to the next place allowed.
import type { BodyView } from '../../protocol/webviewMessages';
import { formatBytes, formatCount } from './format';
import { isFormBody } from '../secrets/vocabulary';
import { FIELD_START, FormFieldScanner, maskFieldHead, type FieldState } from './formFields';
import { redactBodyText } from './redaction';
import { maskSecretValues, SecretValueScanner, START, type ScanState } from './secretValues';
import type { SpillStore } from './spillStore';

export const PAGE_BYTES = 256 * 1024;

interface Cut {
  readonly at: number;
  /** The JSON scanner's state at the cut (START for a body not JSON). */
  readonly state: ScanState;
  /** The form scanner's state at the cut (FIELD_START for a body not a form). */
  readonly field: FieldState;
}

const COMMA = 0x2c, NEWLINE = 0x0a, AMP = 0x26;
/** Each side of a cut looked at for what the redaction masks across it: longer than any secret's form. */
const REDACTION_REACH = 4096;
const isOpen = (b: number): boolean => b === 0x5b || b === 0x7b;

export class BodyPages {
  /** cuts[k]: where page k starts and the scanner's state there. */
  private readonly cuts: Cut[] = [{ at: 0, state: START, field: FIELD_START }];
  /** A form body (not read as JSON): its fields are cut apart at `&` and followed across cuts. */
  private readonly form: boolean;

  constructor(
    private readonly store: SpillStore,
    private readonly json: boolean,
    private readonly redact: (text: string) => string,
    private readonly contentType = '',
    private readonly pageBytes = PAGE_BYTES,
  ) {
    this.form = !json && isFormBody(contentType);
  }

  get pageCount(): number {
    return Math.max(1, Math.ceil(this.store.size / this.pageBytes));
  }

  /** Page `index` (clamped) as the raw view shows it: secret-named values masked and indented when JSON, redacted. */
  async page(index: number): Promise<BodyView> {
    const k = Math.min(Math.max(0, index), this.pageCount - 1);
    const from = await this.cutAt(k);
    const to = k + 1 < this.pageCount ? (await this.cutAt(k + 1)).at : this.store.size;
    const bytes = await this.store.read(from.at, to);
    const text = (this.json ? maskSecretValues(bytes, from.state) : this.form ? maskFieldHead(bytes, from.field) : bytes).toString('utf8');
    const shown = this.redact(redactBodyText(this.json && !from.state.inString ? indentFrom(text, from.state.depth) : text, this.contentType));
    const note = `Bytes ${formatCount(from.at)}–${formatCount(to)} of ${formatBytes(this.store.size)}, read from disk a page at a time; search covers this page.`;
    return { text: shown, language: this.json ? 'json' : 'text', truncated: true, totalChars: this.store.size, note, page: { index: k, count: this.pageCount } };
  }

  private async cutAt(k: number): Promise<Cut> {
    while (this.cuts.length <= k) {
      const last = this.cuts[this.cuts.length - 1]!;
      this.cuts.push(await this.nextCut(last, this.cuts.length * this.pageBytes));
    }
    return this.cuts[k]!;
  }

  /**
   * The first cut at or after `target`, scanning from `from`: after a comma, a newline or an open bracket
   * (a form's `&`), outside a string and a masked value, never between a key and its value; a forced one (at
   * a character's start, the scanners' state carried) at the next page's start when none.
   */
  private async nextCut(from: Cut, target: number): Promise<Cut> {
    const scanner = this.json ? new SecretValueScanner(from.state) : undefined;
    const fields = this.form ? new FormFieldScanner(from.field) : undefined;
    const cut = (at: number): Cut => ({ at, state: scanner?.state ?? START, field: fields?.state ?? FIELD_START });
    const forced = Math.min(this.store.size, target + this.pageBytes - 1);
    for (let base = from.at; base < this.store.size;) {
      const chunk = await this.store.read(base, Math.min(this.store.size, base + (1 << 20)));
      if (chunk.length === 0) break;
      for (let i = 0; i < chunk.length; i++) {
        // A string's text in one run (no cut falls inside a string), up to the forced cut.
        if (scanner) i = scanner.skipInString(chunk, i, Math.min(chunk.length, forced - base));
        if (i >= chunk.length) break;
        const at = base + i;
        const byte = chunk[i]!;
        // The forced cut: the first character start at or past the limit.
        if (at >= forced && (byte & 0xc0) !== 0x80 && !(await this.splitsRedaction(at))) return cut(at);
        scanner?.step(byte);
        fields?.step(byte);
        if (at + 1 >= target && (byte === COMMA || byte === NEWLINE || isOpen(byte) || (fields && byte === AMP)) && (!scanner || (scanner.mayCut && !scanner.masking)) && !(await this.splitsRedaction(at + 1))) {
          return cut(at + 1);
        }
      }
      base += chunk.length;
    }
    return cut(this.store.size);
  }

  /** Whether a cut at `at` would split what the redaction masks: the text around it redacts otherwise whole than in halves. */
  private async splitsRedaction(at: number): Promise<boolean> {
    const [left, right] = await Promise.all([this.store.read(Math.max(0, at - REDACTION_REACH), at), this.store.read(at, Math.min(this.store.size, at + REDACTION_REACH))]);
    const [l, r] = [left.toString('utf8'), right.toString('utf8')];
    return this.redact(l + r) !== this.redact(l) + this.redact(r);
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
