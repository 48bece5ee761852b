// What the LSP client said it can take, and the one place answers are fitted to it: a client without
// snippet support gets plain insert text (never a literal `$1`), a client that does not list markdown
// gets plaintext hover and documentation. The language service itself always writes snippets and markdown.
import {
  InsertTextFormat, MarkupKind, type ClientCapabilities, type CompletionItem, type CompletionList, type Hover, type MarkupContent,
} from 'vscode-languageserver';

export interface ClientFormats {
  readonly snippets: boolean;
  /** Completion item documentation may be markdown. */
  readonly markdownDocumentation: boolean;
  readonly markdownHover: boolean;
}

/** Absent capabilities mean "not supported" (LSP 3.17): only what the client declares is used. */
export function clientFormats(capabilities: ClientCapabilities | undefined): ClientFormats {
  const completion = capabilities?.textDocument?.completion?.completionItem;
  return {
    snippets: completion?.snippetSupport === true,
    markdownDocumentation: completion?.documentationFormat?.includes(MarkupKind.Markdown) === true,
    markdownHover: capabilities?.textDocument?.hover?.contentFormat?.includes(MarkupKind.Markdown) === true,
  };
}

export const FULL_FORMATS: ClientFormats = { snippets: true, markdownDocumentation: true, markdownHover: true };

/** A snippet's text as the plain text it inserts: placeholders keep their default, tab stops vanish. */
export function snippetToPlainText(snippet: string): string {
  let out = '';
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i];
    if (c === '\\' && i + 1 < snippet.length && '$}\\'.includes(snippet[i + 1] ?? '')) {
      out += snippet[++i];
    } else if (c === '$' && /\d/.test(snippet[i + 1] ?? '')) {
      while (/\d/.test(snippet[i + 1] ?? '')) i++;
    } else if (c === '$' && snippet[i + 1] === '{') {
      const m = /^\$\{\d+(?::((?:\\.|[^\\}])*)|\|([^|]*)\|)?\}/.exec(snippet.slice(i));
      if (!m) { out += c; continue; }
      out += snippetToPlainText(m[1] ?? (m[2]?.split(',')[0] ?? ''));
      i += m[0].length - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** Markdown as readable plaintext: emphasis and code marks dropped, links as `text (url)`. */
export function markdownToPlainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, '')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|[^\w*])\*([^*\n]+)\*(?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}

function plain(content: MarkupContent): MarkupContent {
  return content.kind === MarkupKind.Markdown ? { kind: MarkupKind.PlainText, value: markdownToPlainText(content.value) } : content;
}

function fitItem(item: CompletionItem, formats: ClientFormats): CompletionItem {
  let fitted = item;
  if (!formats.snippets && item.insertTextFormat === InsertTextFormat.Snippet) {
    fitted = { ...fitted, insertTextFormat: InsertTextFormat.PlainText };
    if (fitted.insertText !== undefined) fitted = { ...fitted, insertText: snippetToPlainText(fitted.insertText) };
    if (fitted.textEdit) fitted = { ...fitted, textEdit: { ...fitted.textEdit, newText: snippetToPlainText(fitted.textEdit.newText) } };
  }
  if (!formats.markdownDocumentation && typeof fitted.documentation === 'object') fitted = { ...fitted, documentation: plain(fitted.documentation) };
  return fitted;
}

export function fitCompletion(list: CompletionList, formats: ClientFormats): CompletionList {
  if (formats.snippets && formats.markdownDocumentation) return list;
  return { ...list, items: list.items.map((item) => fitItem(item, formats)) };
}

export function fitHover(hover: Hover | null, formats: ClientFormats): Hover | null {
  if (!hover || formats.markdownHover) return hover;
  const contents = hover.contents;
  if (typeof contents === 'object' && 'kind' in contents) return { ...hover, contents: plain(contents) };
  // MarkedString forms (deprecated): strings are markdown, `{ language, value }` is code.
  const strings = (Array.isArray(contents) ? contents : [contents]).map((c) => (typeof c === 'string' ? markdownToPlainText(c) : c.value));
  return { ...hover, contents: { kind: MarkupKind.PlainText, value: strings.join('\n\n') } };
}
