// What the published contract does not show about one request — an inferred path, a body it does not
// describe, query names it does not publish, an operation it does not name — said once per request: in
// a CodeLens above the request line and in the request line's hover. Not as diagnostics: an information
// squiggle under every `{{base_url}}` of every sample teaches users to ignore squiggles.
import type { HttpRequestNode } from '../../core/httpfile';
import type { SeedRef } from '../../core/catalog';
import type { ServiceContext } from './context';

export interface ContractNote {
  /** A few words for the CodeLens, e.g. "path inferred". */
  readonly short: string;
  /** The whole note for the hover. */
  readonly text: string;
}

export interface RequestContractNotes {
  readonly notes: readonly ContractNote[];
  /** The contract section the notes are about (the operation's or its family's). */
  readonly source?: SeedRef;
}

export function contractNotes(request: HttpRequestNode, context: ServiceContext): RequestContractNotes {
  const line = request.requestLine;
  const known = context.operations.match(line.method, line.url);
  if (!known) {
    if (context.operations.deprecatedFamily(line.url)?.deprecated) return { notes: [] };
    const silent = context.operations.silentFamily(line.url);
    if (!silent) return { notes: [] };
    return {
      source: silent.source,
      notes: [{
        short: 'operation not shown',
        text: `The ${silent.name} family does not show this operation${silent.notShown[0] ? ` (${silent.notShown[0]})` : ''}. Import an OpenAPI document or check the path.`,
      }],
    };
  }
  const op = known.operation;
  const notes: ContractNote[] = [];
  if (op.pathStatus === 'inferred') {
    const form = op.service === 'engagement' ? ' from the /api/<Family>/<Operation> form of every published path' : '';
    notes.push({ short: 'path inferred', text: `The path of ${op.family}/${op.name} is not shown; ${op.path ?? 'this path'} is inferred${form}.` });
  }
  if (request.body !== undefined && !known.requestSchema && op.method !== 'GET') {
    notes.push({ short: 'body not checked', text: `The request body of ${op.family}/${op.name} is not shown, so it is not checked.` });
  }
  const silentNames = op.origin === 'contract' ? op.notShown.find((n) => /parameters?: not shown/i.test(n)) : undefined;
  const unchecked = silentNames ? request.queryParameters.filter((p) => !op.query?.some((q) => q.name.toLowerCase() === p.name.toLowerCase())) : [];
  if (silentNames && unchecked.length > 0) {
    notes.push({ short: 'query names not checked', text: `${unchecked.map((p) => `'${p.name}'`).join(', ')} ${unchecked.length === 1 ? 'is' : 'are'} not checked. ${silentNames}` });
  }
  return { notes, ...(op.origin === 'contract' ? { source: op.source } : {}) };
}

/** The hover section: empty when the contract shows everything this request uses. */
export function contractNotesMarkdown(notes: RequestContractNotes): string {
  if (notes.notes.length === 0) return '';
  return `**Contract not published**${notes.source ? ` (seed ${notes.source.seed} §${notes.source.section})` : ''}:\n${notes.notes.map((n) => `- ${n.text}`).join('\n')}`;
}
