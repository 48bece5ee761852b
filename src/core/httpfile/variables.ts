// Finding `{{...}}` references in a line of text. Resolution lives in resolve.ts.
import type { HttpFileDiagnostic, VariableReference } from './model';
import { range } from './lines';

/** `{{$...}}`: a system variable ($timestamp, $auth.token(...)), resolved when the request is sent, never a defined one. */
export function isSystemVariable(name: string): boolean {
  return name.startsWith('$');
}

/** The references on one line; an unterminated `{{` is reported, never thrown. */
export function scanReferences(
  text: string,
  line: number,
  startCharacter: number,
  out: VariableReference[],
  diagnostics: HttpFileDiagnostic[],
): void {
  let from = text.indexOf('{{', startCharacter);
  while (from !== -1) {
    const close = text.indexOf('}}', from + 2);
    if (close === -1) {
      diagnostics.push({
        code: 'unterminated-variable',
        message: "'{{' is not closed by '}}' on this line.",
        range: range(line, from, line, text.length),
        severity: 'warning',
      });
      return;
    }
    const inner = text.slice(from + 2, close);
    const lead = inner.length - inner.trimStart().length;
    const name = inner.trim();
    out.push({
      name,
      range: range(line, from, line, close + 2),
      nameRange: range(line, from + 2 + lead, line, from + 2 + lead + name.length),
    });
    from = text.indexOf('{{', close + 2);
  }
}
