// A request body seen as JSON: `{{variables}}` outside strings are masked (same length) so that
// jsonc-parser sees valid JSON and offsets stay those of the document.
import type { Node, ParseError } from 'jsonc-parser';
import type { HttpRequestNode } from '../../core/httpfile';
import type { TooDeep } from '../../core/json/depth';
import { jsonTree } from './jsonTree';

export interface JsonBody {
  /** The body with `{{...}}` outside strings replaced by a number of the same length. */
  readonly text: string;
  /** Document offset of the body's first character. */
  readonly offset: number;
  readonly tree: Node | undefined;
  readonly errors: readonly ParseError[];
  /** Body-relative [start, end) of the masked placeholders: their values have no known type. */
  readonly placeholders: ReadonlyArray<readonly [number, number]>;
  /** Set when the body nests deeper than the product reads: it is then not parsed (no tree, no errors). */
  readonly tooDeep?: TooDeep;
  /** Set when the body is longer than MAX_ANALYSED_BODY_LENGTH: it is then not parsed either. */
  readonly tooLong?: boolean;
}

/**
 * Bodies longer than this are not parsed for completion, hover and schema checks: the work done per
 * keystroke stays bounded whatever a file holds (a pasted 50 MB export, say).
 */
export const MAX_ANALYSED_BODY_LENGTH = 2_000_000;

/** True when the request's body is meant to be JSON (by Content-Type, else by its first character). */
export function isJsonRequest(request: HttpRequestNode): boolean {
  // The length first: most headers are not 12 characters long, and need no lower-cased copy (no name
  // of another length lower-cases to 'content-type': test/unit/languageServiceJsonBody.test.ts).
  const contentType = request.headers.find((h) => h.name.length === 12 && h.name.toLowerCase() === 'content-type')?.value.toLowerCase();
  if (contentType) return contentType.includes('json') || contentType.includes('{{');
  const body = request.body;
  return body?.kind === 'inline' && /^\s*[{[]/.test(body.text);
}

const NO_PLACEHOLDERS: JsonBody['placeholders'] = Object.freeze([]);

export function analyseJsonBody(text: string, offset: number): JsonBody {
  if (text.length > MAX_ANALYSED_BODY_LENGTH) return { text, offset, tree: undefined, errors: [], placeholders: [], tooLong: true };
  // Most bodies hold no {{variable}}: they share one empty list.
  let placeholders = NO_PLACEHOLDERS;
  let masked = text;
  if (text.includes('{{')) {
    const found: Array<[number, number]> = [];
    masked = maskPlaceholders(text, found);
    placeholders = found;
  }
  // jsonc-parser recurses once per level: a 10 000-deep body would overflow the server's stack, so a body
  // nesting deeper than MAX_JSON_DEPTH is not parsed (jsonTree checks first).
  const { tree, errors, tooDeep } = jsonTree(masked);
  if (tooDeep) return { text: masked, offset, tree: undefined, errors: [], placeholders, tooDeep };
  return { text: masked, offset, tree, errors, placeholders };
}

/** The body as analyseJsonBody reads it (`{{...}}` outside strings masked), without the placeholders' places. */
export function maskedJsonText(text: string): string {
  return text.includes('{{') ? maskPlaceholders(text, []) : text;
}

function maskPlaceholders(text: string, out: Array<[number, number]>): string {
  if (!text.includes('{{')) return text;
  let result = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') { result += c + (text[i + 1] ?? ''); i++; continue; }
      if (c === '"' || c === '\n') inString = false;
      result += c;
      continue;
    }
    if (c === '"') { inString = true; result += c; continue; }
    if (c === '{' && text[i + 1] === '{') {
      const close = text.indexOf('}}', i + 2);
      const newline = text.indexOf('\n', i);
      if (close !== -1 && (newline === -1 || close < newline)) {
        const length = close + 2 - i;
        result += '0'.padEnd(length, ' ');
        out.push([i, close + 2]);
        i = close + 1;
        continue;
      }
    }
    result += c;
  }
  return result;
}

export function isPlaceholder(body: JsonBody, node: Node): boolean {
  const placeholders = body.placeholders;
  for (let p = 0; p < placeholders.length; p++) if (placeholders[p]![0] === node.offset) return true;
  return false;
}
