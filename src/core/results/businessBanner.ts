// The banner for a business failure reported inside a response body. The detection itself lives in
// core/catalog/businessErrors (six conventions); this module only words the result for people: the catalogue
// meanings of each code, the published ambiguity of a code with several meanings (SurveyApi 14), and the
// plain fact that the HTTP status said nothing was wrong.
import type { BusinessBanner, BusinessFailureView } from '../../protocol/webviewMessages';

/** The shape detectBusinessErrors() returns; kept structural so the panel does not depend on its internals. */
export interface BusinessErrorReportLike {
  readonly convention?: string | null;
  readonly failed: boolean;
  readonly catalogue?: string;
  readonly failures: readonly {
    readonly code?: number | null;
    readonly message?: string | null;
    readonly meanings?: readonly string[];
    readonly ambiguous?: boolean;
    readonly unknownCode?: boolean;
  }[];
}

/** The six conventions of seed 000 §7.2, as they look in a body. */
const CONVENTION_WORDS: Readonly<Record<string, string>> = {
  'ResponseStatus+Errors': 'ResponseStatus + Errors[{ErrorCode, ErrorDescription}]',
  'Response+Error': 'Response + Error',
  'Response+Errors': 'Response + Errors (strings)',
  'response+errors': 'lowercase response + errors',
  'Success+Error': 'Success + Error',
  Error: 'Error only',
};

function noteFor(code: number | undefined, meanings: readonly string[], ambiguous: boolean, catalogue: string | undefined): string | undefined {
  const where = catalogue ? `the ${catalogue} catalogue` : 'its catalogue';
  if (code === undefined) return undefined;
  if (meanings.length > 1 || ambiguous) {
    return `Code ${code} has ${meanings.length > 1 ? meanings.length : 'several'} published meanings in ${where}; the contract does not say which applies here, so check each.`;
  }
  if (meanings.length === 0) return catalogue ? `Code ${code} is not listed in ${where}.` : `No catalogue is known for this operation, so code ${code} is shown without its meaning.`;
  return undefined;
}

export function buildBusinessBanner(
  report: BusinessErrorReportLike | undefined,
  httpStatus: number,
  statusText: string,
  catalogue?: string,
): BusinessBanner | undefined {
  if (!report?.failed) return undefined;
  catalogue ??= report.catalogue;
  const failures: BusinessFailureView[] = report.failures.map((f) => {
    const code = typeof f.code === 'number' ? f.code : undefined;
    const meanings = [...(f.meanings ?? [])];
    const note = noteFor(code, meanings, f.ambiguous === true, catalogue);
    const message = f.message?.trim() || (meanings.length === 1 ? meanings[0]! : 'The service reported a failure without a message.');
    return { ...(code !== undefined ? { code } : {}), message, meanings, ...(note ? { note } : {}) };
  });
  if (failures.length === 0) failures.push({ message: 'The service reported a failure without a code or a message.', meanings: [] });
  const statusNote =
    httpStatus >= 200 && httpStatus < 300
      ? `The HTTP status was ${httpStatus}${statusText ? ` ${statusText}` : ''}: the service reports this failure inside the body, not through the status.`
      : `The HTTP status was ${httpStatus}${statusText ? ` ${statusText}` : ''}.`;
  return {
    convention: report.convention ? (CONVENTION_WORDS[report.convention] ?? report.convention) : 'unknown',
    ...(catalogue ? { catalogue } : {}),
    httpStatus,
    statusNote,
    failures,
  };
}
