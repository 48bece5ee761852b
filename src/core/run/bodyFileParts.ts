// A multipart body's `< ./file` lines (httpfile/request.ts finds them) replaced by the files' content, as
// REST Client, httpYac and the JetBrains HTTP Client send them. Each file is read through the port of a
// `< file` body (relative to the .http file, by the editor's and the CLI's own rules; the CLI checked it
// and registered it as an input of the run first: runPlan.ts). The body's other lines get their variables
// as the body did. A part goes as text: a file that is not text in its encoding is refused, never sent mangled.
import type { BodyFileLine } from '../httpfile/model';
import type { ResolvedText } from '../httpfile/resolve';
import { splitLines } from '../httpfile/lines';
import { NotTextError } from '../text/bodyFile';

/** What the parts need: the body's text and first line, its file lines, how text is resolved, how a file is read. */
export interface FilePartsInput {
  readonly text: string;
  readonly firstLine: number;
  readonly files: readonly BodyFileLine[];
  readonly resolve: (text: string) => ResolvedText;
  /** `strict`: bytes that do not decode throw NotTextError (decodeBodyFile's, core/text/bodyFile.ts). */
  readonly read: (path: string, encoding?: string, strict?: boolean) => Promise<string>;
}

/** The file line as written, for messages: `< ./up.txt`. */
export function shownFileLine(file: Pick<BodyFileLine, 'path' | 'substituteVariables' | 'encoding'>): string {
  return `<${file.substituteVariables ? '@' : ''}${file.encoding ?? ''} ${file.path}`;
}

/** Why a file line whose path holds a variable is not read (its file could not be checked before the run). */
export function pathVariableProblem(file: Pick<BodyFileLine, 'path' | 'substituteVariables' | 'encoding'>): string | undefined {
  return file.path.includes('{{') ? `${shownFileLine(file)}: a file path holding a variable is not read in a multipart body` : undefined;
}

/** The body with each file line replaced by its file's content; or the first problem (a line's words, an unresolved variable). */
export async function withFileParts(input: FilePartsInput): Promise<ResolvedText | { readonly problem: string }> {
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
      pending += line.text + line.eol;
      continue;
    }
    add(input.resolve(pending));
    pending = '';
    const shown = shownFileLine(file);
    const variable = pathVariableProblem(file);
    if (variable !== undefined) return { problem: variable };
    let content: string;
    try {
      content = await input.read(file.path, file.encoding, true);
    } catch (error) {
      if (error instanceof NotTextError) return { problem: `${shown}: ${error.message}; a multipart part is sent as text only, so this request is not sent` };
      return { problem: `${shown}: ${error instanceof Error ? error.message : String(error)}` };
    }
    add(file.substituteVariables ? input.resolve(content) : { text: content, unresolved: [] });
    text += line.eol;
  }
  add(input.resolve(pending));
  return { text, unresolved };
}
