// A `{{$…}}` that would stop the request when it is sent, said where it is written: a name the one table
// of dynamic variables does not know, one it does not support, or arguments it does not take. The words
// are the resolver's own (src/core/run/dynamicVariables.ts, DYNAMIC_SHAPES), so the editor warns of
// exactly what `apiwb run` refuses.
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from './lspConstants';
import { isSystemVariable, type HttpRequestNode } from '../../core/httpfile';
import { DYNAMIC_SHAPES } from '../../core/run/dynamicVariables';

export function dynamicVariableProblems(request: HttpRequestNode, source: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const reference of request.references) {
    if (!isSystemVariable(reference.name)) continue;
    const head = /^\$[\w.-]+/.exec(reference.name)?.[0] ?? reference.name;
    const answer = DYNAMIC_SHAPES.resolve(head, reference.name.slice(head.length).trim());
    if (typeof answer === 'object' && 'problem' in answer) {
      out.push({ severity: DiagnosticSeverity.Warning, range: reference.nameRange, message: `{{${reference.name}}}: ${answer.problem}; the request is not sent while it is so.`, source, code: 'dynamic-variable' });
    }
  }
  return out;
}
