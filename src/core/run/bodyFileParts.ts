// A multipart body's `< ./file` lines (httpfile/request.ts finds them) replaced by the files' content, as
// REST Client, httpYac and the JetBrains HTTP Client send them. Each file is read by the one reader of a
// request's included files (prepareRequest.ts: includedText, the `< file` body's too: through the port,
// relative to the .http file, `<@` with its variables and $auth; the CLI checked it and registered it as
// an input of the run first: runPlan.ts). The body's other lines get their variables as the body did. A
// part goes as text: a file that is not text in its encoding is refused, never sent mangled.
// Line breaks: a multipart body's structure (boundary lines, part headers, the blank line after them) ends
// its lines in CRLF whatever the .http file's own (RFC 2046 5.1.1, RFC 7578; REST Client writes '\r\n'), and
// so do the lines of a text part written inline, as REST Client sends them; a `< ./file` part's content goes
// as the file holds it (its own line endings, untouched).
import type { BodyFileLine } from '../httpfile/model';
import type { ResolvedText } from '../httpfile/resolve';
import { splitLines } from '../httpfile/lines';

/** What the parts need: the body's text and first line, its file lines, how text is resolved, what a file line sends. */
export interface FilePartsInput<F extends { readonly problem: string }> {
  readonly text: string;
  readonly firstLine: number;
  readonly files: readonly BodyFileLine[];
  readonly resolve: (text: string) => ResolvedText;
  /** A file line's content as sent (read as text only, `<@` substituted), or why it cannot be. */
  readonly part: (file: BodyFileLine) => Promise<string | F>;
}

/** The file line as written, for messages: `< ./up.txt`. */
export function shownFileLine(file: Pick<BodyFileLine, 'path' | 'substituteVariables' | 'encoding'>): string {
  return `<${file.substituteVariables ? '@' : ''}${file.encoding ?? ''} ${file.path}`;
}

/** Why a file line whose path holds a variable is not read (its file could not be checked before the run). */
export function pathVariableProblem(file: Pick<BodyFileLine, 'path' | 'substituteVariables' | 'encoding'>): string | undefined {
  return file.path.includes('{{') ? `${shownFileLine(file)}: a file path holding a variable is not read in a multipart body` : undefined;
}

const CRLF = '\r\n';

/** The body with each file line replaced by its file's content, lines broken with CRLF; or the first problem (a line's words, an unresolved variable). */
export async function withFileParts<F extends { readonly problem: string }>(input: FilePartsInput<F>): Promise<ResolvedText | F | { readonly problem: string }> {
  const byLine = new Map(input.files.map((f) => [f.range.start.line, f]));
  let text = '';
  let pending = '';
  const unresolved: ResolvedText['unresolved'][number][] = [];
  const add = (resolved: ResolvedText): void => {
    text += resolved.text;
    unresolved.push(...resolved.unresolved);
  };
  for (const [k, line] of splitLines(input.text).entries()) {
    const file = byLine.get(input.firstLine + k);
    if (!file) {
      pending += line.text + (line.eol === '' ? '' : CRLF);
      continue;
    }
    add(input.resolve(pending));
    pending = '';
    const variable = pathVariableProblem(file);
    if (variable !== undefined) return { problem: variable };
    const content = await input.part(file);
    if (typeof content !== 'string') return content;
    text += content + (line.eol === '' ? '' : CRLF);
  }
  add(input.resolve(pending));
  return { text, unresolved };
}
