// Two printers. `printHttpFile` is lossless: print(parse(text)) === text for any input, because the
// tree keeps every source line with its own line break. `printNormalizedHttpFile` writes the canonical
// form the product generates (scratch files, saved collections) from plain data.
import type { HttpFile } from './model';

export function printHttpFile(file: HttpFile): string {
  let out = '';
  for (const block of file.blocks) {
    for (let i = block.firstLine; i <= block.lastLine; i++) {
      const line = file.lines[i];
      if (line) out += line.text + line.eol;
    }
  }
  return out;
}

export interface RequestSpec {
  readonly method: string;
  readonly url: string;
  readonly httpVersion?: string;
  readonly headers?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** Inline body text, or a `< path` include. */
  readonly body?: string | { readonly include: string; readonly substituteVariables?: boolean };
  /** Response handler scripts, printed as `> {% ... %}`. */
  readonly handlers?: readonly string[];
}

export interface BlockSpec {
  /** The `### title`. */
  readonly title?: string;
  readonly comments?: readonly string[];
  readonly variables?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** `# @key value` lines; `name` is printed first. */
  readonly directives?: ReadonlyArray<{ readonly key: string; readonly value?: string }>;
  readonly request?: RequestSpec;
}

/**
 * The canonical form: each request opens with `###`, then comments, file variables, directives,
 * request line, headers, a blank line and the body; one blank line between requests.
 */
export function printNormalizedHttpFile(blocks: readonly BlockSpec[], eol: '\n' | '\r\n' = '\n'): string {
  const out: string[] = [];
  blocks.forEach((block, index) => {
    const isLeadingPrelude = index === 0 && !block.request && block.title === undefined;
    if (!isLeadingPrelude) out.push(block.title ? `### ${block.title}` : '###');
    for (const comment of block.comments ?? []) out.push(`# ${comment}`.trimEnd());
    for (const variable of block.variables ?? []) out.push(`@${variable.name} = ${variable.value}`);
    const directives = [...(block.directives ?? [])].sort((a, b) => Number(b.key === 'name') - Number(a.key === 'name'));
    for (const directive of directives) out.push(`# @${directive.key}${directive.value ? ` ${directive.value}` : ''}`);
    const request = block.request;
    if (request) {
      out.push(`${request.method.toUpperCase()} ${request.url}${request.httpVersion ? ` ${request.httpVersion}` : ''}`);
      for (const header of request.headers ?? []) out.push(`${header.name}: ${header.value}`);
      if (request.body !== undefined) {
        out.push('');
        if (typeof request.body === 'string') out.push(...request.body.split(/\r\n|\r|\n/));
        else out.push(`<${request.body.substituteVariables ? '@' : ''} ${request.body.include}`);
      }
      if (request.handlers?.length) {
        out.push('');
        for (const script of request.handlers) out.push(`> {%${script}%}`);
      }
    }
    out.push('');
  });
  return out.join(eol);
}

/** The data of a parsed file in the shape `printNormalizedHttpFile` takes (comments and directives kept). */
export function toBlockSpecs(file: HttpFile): BlockSpec[] {
  return file.blocks.map((block) => {
    const request = block.request;
    return {
      title: block.separator ? block.separator.title : undefined,
      comments: block.comments.map((c) => c.text.trim()),
      variables: block.variables.map((v) => ({ name: v.name, value: v.value })),
      directives: block.directives.map((d) => ({ key: d.key, value: d.value })),
      request: request && {
        method: request.requestLine.method,
        url: request.requestLine.url + request.queryContinuations.map((q) => q.text).join(''),
        httpVersion: request.requestLine.httpVersion,
        headers: request.headers.map((h) => ({ name: h.name, value: h.value })),
        body: request.body?.kind === 'inline'
          ? request.body.text.split(/\r\n|\r|\n/).join('\n')
          : request.body && { include: request.body.path, substituteVariables: request.body.substituteVariables },
        handlers: request.responseHandlers.filter((h) => h.kind === 'script').map((h) => h.text.split(/\r\n|\r/).join('\n')),
      },
    };
  });
}
