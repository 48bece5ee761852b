// A request body's JSON tree, as jsonc-parser's parseTree builds it (strict JSON: no comments, no
// trailing commas, no empty content), after the depth check that keeps parseTree's recursion bounded.
// parseTree is a general parser (a scanner, a visitor, callbacks, error recovery); opening a file parses
// thousands of bodies with it. Most bodies are plain, valid JSON, so a direct reader reads those: it
// builds the very same nodes (type, offset, length, value, colonOffset, children, parent) and gives up at
// the first thing it does not read exactly as parseTree does (an escape, a control character, a comment,
// any syntax error, whitespace other than space, tab, CR and LF, nesting deeper than MAX_JSON_DEPTH...);
// then the depth check and parseTree read the body. A text the reader answers has no escape, so the depth
// check (jsonTextTooDeep) would see the same brackets at the same depths and pass: one pass, one rule.
// test/unit/languageServiceJsonTree.test.ts checks both on valid and hostile texts.
import { parseTree, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';
import { jsonTextTooDeep, MAX_JSON_DEPTH, type TooDeep } from '../../core/json/depth';

const STRICT: ParseOptions = { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false };

export interface JsonTree {
  readonly tree: Node | undefined;
  readonly errors: readonly ParseError[];
  /** Set when the text nests deeper than MAX_JSON_DEPTH: it is then not parsed (no tree, no errors). */
  readonly tooDeep?: TooDeep;
}

/** jsonTextTooDeep(text), then (not too deep) parseTree(text, errors, strict JSON options). */
export function jsonTree(text: string): JsonTree {
  const direct = directTree(text);
  if (direct) return { tree: direct, errors: [] };
  const tooDeep = jsonTextTooDeep(text);
  if (tooDeep) return { tree: undefined, errors: [], tooDeep };
  const errors: ParseError[] = [];
  return { tree: parseTree(text, errors, STRICT), errors };
}

/** The tree of a plain, valid JSON text nesting at most `limit` deep, built directly; undefined when the text is anything else. */
export function directTree(text: string, limit = MAX_JSON_DEPTH): Node | undefined {
  const reader = new DirectReader(text, limit);
  try {
    reader.skipSpace();
    const root = reader.value(undefined);
    reader.skipSpace();
    if (reader.at !== text.length) return undefined;
    delete root.parent;
    return root;
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

/** Thrown (one shared instance, so no stack is taken per throw) when the text is not plain, valid JSON. */
class GiveUp extends Error {}
const GIVE_UP = new GiveUp('give up');
/** A property node's children while its value is read (replaced before the tree is returned). */
const NOT_YET: Node[] = [];

type MutableNode = { -readonly [K in keyof Node]: Node[K] } & { children?: Node[] };

class DirectReader {
  at = 0;
  private depth = 0;
  constructor(private readonly text: string, private readonly limit: number) {}

  skipSpace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 32 || c === 10 || c === 13 || c === 9) at++;
      else break;
    }
    this.at = at;
  }

  /** The value starting at `at` (no space before it), or GIVE_UP. */
  value(parent: Node | undefined): MutableNode {
    const text = this.text;
    const start = this.at;
    const c = text.charCodeAt(start);
    if (c === 123) return this.object(parent);
    if (c === 91) return this.array(parent);
    if (c === 34) {
      const end = this.stringEnd(start);
      this.at = end;
      return { type: 'string', offset: start, length: end - start, parent, value: text.slice(start + 1, end - 1) };
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const end = this.numberEnd(start);
      this.at = end;
      return { type: 'number', offset: start, length: end - start, parent, value: Number(text.slice(start, end)) };
    }
    for (let k = 0; k < LITERALS.length; k++) {
      const [word, value] = LITERALS[k]!;
      if (text.startsWith(word, start)) {
        const end = start + word.length;
        if (!isDelimiter(text.charCodeAt(end))) break;
        this.at = end;
        return { type: value === null ? 'null' : 'boolean', offset: start, length: word.length, parent, value };
      }
    }
    throw GIVE_UP;
  }

  private object(parent: Node | undefined): MutableNode {
    const text = this.text;
    const node = { type: 'object', offset: this.at, length: -1, parent, children: [] as Node[] } as MutableNode & { children: Node[] };
    if (++this.depth > this.limit) throw GIVE_UP;
    this.at++;
    this.skipSpace();
    if (text.charCodeAt(this.at) === 125) {
      this.at++;
      node.length = this.at - node.offset;
      this.depth--;
      return node;
    }
    for (;;) {
      const keyStart = this.at;
      if (text.charCodeAt(keyStart) !== 34) throw GIVE_UP;
      const keyEnd = this.stringEnd(keyStart);
      // Made with every field it ends with (an added field would need a separate backing store); the
      // colon and the children are set below, before the node can be seen.
      const property = { type: 'property', offset: keyStart, length: -1, parent: node, children: NOT_YET, colonOffset: -1 } as MutableNode & { children: Node[] };
      const key = { type: 'string', value: text.slice(keyStart + 1, keyEnd - 1), offset: keyStart, length: keyEnd - keyStart, parent: property } as Node;
      node.children.push(property);
      this.at = keyEnd;
      this.skipSpace();
      if (text.charCodeAt(this.at) !== 58) throw GIVE_UP;
      property.colonOffset = this.at;
      this.at++;
      this.skipSpace();
      // Key and value in an array of their own size (pushed one by one, it would grow to room for 16).
      property.children = [key, this.value(property)];
      property.length = this.at - keyStart;
      this.skipSpace();
      const next = text.charCodeAt(this.at);
      this.at++;
      if (next === 125) break;
      if (next !== 44) throw GIVE_UP;
      this.skipSpace();
    }
    node.length = this.at - node.offset;
    this.depth--;
    return node;
  }

  private array(parent: Node | undefined): MutableNode {
    const text = this.text;
    const node = { type: 'array', offset: this.at, length: -1, parent, children: [] as Node[] } as MutableNode & { children: Node[] };
    if (++this.depth > this.limit) throw GIVE_UP;
    this.at++;
    this.skipSpace();
    if (text.charCodeAt(this.at) === 93) {
      this.at++;
      node.length = this.at - node.offset;
      this.depth--;
      return node;
    }
    for (;;) {
      node.children.push(this.value(node));
      this.skipSpace();
      const next = text.charCodeAt(this.at);
      this.at++;
      if (next === 93) break;
      if (next !== 44) throw GIVE_UP;
      this.skipSpace();
    }
    node.length = this.at - node.offset;
    this.depth--;
    return node;
  }

  /** End (after the closing quote) of a string without escapes or control characters starting at `start`. */
  private stringEnd(start: number): number {
    const text = this.text;
    for (let at = start + 1; at < text.length; at++) {
      const c = text.charCodeAt(at);
      if (c === 34) return at + 1;
      if (c === 92 || c < 32) throw GIVE_UP;
    }
    throw GIVE_UP;
  }

  /** End of a JSON number (-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?) followed by a delimiter. */
  private numberEnd(start: number): number {
    const text = this.text;
    let at = start;
    if (text.charCodeAt(at) === 45) at++;
    if (text.charCodeAt(at) === 48) at++;
    else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
    else throw GIVE_UP;
    if (text.charCodeAt(at) === 46) {
      at++;
      if (!isDigit(text.charCodeAt(at))) throw GIVE_UP;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const e = text.charCodeAt(at);
    if (e === 101 || e === 69) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 43 || sign === 45) at++;
      if (!isDigit(text.charCodeAt(at))) throw GIVE_UP;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    if (!isDelimiter(text.charCodeAt(at))) throw GIVE_UP;
    return at;
  }
}

const LITERALS: ReadonlyArray<readonly [string, boolean | null]> = [['true', true], ['false', false], ['null', null]];

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** What may follow a number or a literal here: space we read, a separator, a closing bracket or the end (NaN). */
function isDelimiter(c: number): boolean {
  return Number.isNaN(c) || c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 125 || c === 93;
}
