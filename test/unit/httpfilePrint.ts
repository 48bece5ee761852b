// Two ways back from a parsed `.http` file, for the tests: `printHttpFile` prints its lines as they were
// (print(parse(text)) === text shows the parser drops no line: the tree keeps every source line with its
// own line break), `toBlockSpecs` gives its data in the shape the product's printer takes
// (printNormalizedHttpFile), so that normalising twice can be compared with normalising once.
import type { HttpFile } from '../../src/core/httpfile/model';
import type { BlockSpec } from '../../src/core/httpfile/printer';

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
