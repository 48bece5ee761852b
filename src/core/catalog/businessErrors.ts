// Business errors inside an HTTP 200 (seed 000 §7.2): the six conventions the engagement service uses,
// told apart by their property names (case-sensitive: Response and response are different conventions),
// with each failure's code looked up in its family's catalogue (§7.3). Codes are never HTTP statuses.
import type { ErrorCatalogueId } from './model';
import { meaningsOf } from './errorCatalogues';
import { isJsonObject } from '../json/numberText';
import { cutShown } from '../text/excerpt';
import { scalarText } from '../text/scalarText';
import { fieldsNotHeld, isNotHeld } from '../paging/notHeld';


export type BusinessErrorConvention =
  | 'ResponseStatus+Errors'
  | 'Response+Error'
  | 'Response+Errors'
  | 'response+errors'
  | 'Success+Error'
  | 'Error'
  | 'none';

export interface BusinessFailure {
  /** The numeric catalogue code, when the body carries one (ResponseStatus + Errors). */
  readonly code?: number;
  readonly message: string;
  /** Every published meaning of the code in the given catalogue; empty without a catalogue or code. */
  readonly meanings: readonly string[];
  /** The catalogue publishes more than one meaning for the code (SurveyApi 14). */
  readonly ambiguous?: boolean;
  /** A catalogue was given and the code is not in it. */
  readonly unknownCode?: boolean;
}

export interface BusinessErrorReport {
  readonly convention: BusinessErrorConvention;
  readonly failed: boolean;
  /** The errors the body describes (also when it reports success with a non-empty list). */
  readonly failures: readonly BusinessFailure[];
  readonly catalogue?: ErrorCatalogueId;
}

type Body = Readonly<Record<string, unknown>>;

/** Every top-level name detectBusinessErrors reads: a body too large to keep whole keeps these. */
export const BUSINESS_ERROR_KEYS: readonly string[] = ['ResponseStatus', 'Errors', 'Success', 'Error', 'Message', 'Response', 'response', 'errors'];

/**
 * The names whose content detectBusinessErrors reads as the server's words (the others it reads only as
 * a flag): a streamed body keeps these as they came, never as a stand-in.
 */
export const BUSINESS_WORDS_KEYS: readonly string[] = ['Errors', 'errors', 'Error', 'Message'];

const NONE: BusinessErrorReport = { convention: 'none', failed: false, failures: [] };

/**
 * Classifies a parsed response body. Non-object bodies (null, arrays, strings, an empty body) carry no
 * business error convention and give 'none'. The flag decides `failed` (ResponseStatus, Response,
 * response, Success); an error property with content also counts as a failure where the flag is absent
 * or not false, except for ResponseStatus, where §7.2 says true means success.
 */
export function detectBusinessErrors(body: unknown, catalogue?: ErrorCatalogueId): BusinessErrorReport {
  if (!isJsonObject(body)) return NONE;
  const record: Body = body;
  const withCatalogue = (report: Omit<BusinessErrorReport, 'catalogue'>): BusinessErrorReport =>
    catalogue ? { ...report, catalogue } : report;

  if ('ResponseStatus' in record) {
    const failures = failuresAt(record, 'Errors', catalogue);
    const failed = record.ResponseStatus === false;
    return withCatalogue({
      convention: 'ResponseStatus+Errors',
      failed,
      failures: failed && failures.length === 0 ? [flagOnly('ResponseStatus is false and Errors describes nothing')] : failures,
    });
  }
  if ('Success' in record) {
    const failures = failuresAt(record, 'Error', catalogue);
    // Real-time dispatch variation (§7.1): Success=false with a Message instead of an Error.
    if (failures.length === 0 && record.Success === false) failures.push(...failuresAt(record, 'Message', catalogue));
    return flagged('Success+Error', record.Success, failures, 'Success is false', withCatalogue);
  }
  if ('Response' in record) {
    const convention = 'Errors' in record ? 'Response+Errors' : 'Response+Error';
    const failures = failuresAt(record, convention === 'Response+Errors' ? 'Errors' : 'Error', catalogue);
    return flagged(convention, record.Response, failures, 'Response is false', withCatalogue);
  }
  if ('response' in record || 'errors' in record) {
    return flagged('response+errors', record.response, failuresAt(record, 'errors', catalogue), 'response is false', withCatalogue);
  }
  if ('Error' in record) {
    const failures = failuresAt(record, 'Error', catalogue);
    return withCatalogue({ convention: 'Error', failed: failures.length > 0, failures });
  }
  return NONE;
}

function flagged(
  convention: BusinessErrorConvention,
  flag: unknown,
  failures: BusinessFailure[],
  flagMessage: string,
  finish: (report: Omit<BusinessErrorReport, 'catalogue'>) => BusinessErrorReport,
): BusinessErrorReport {
  const failed = flag === false || failures.length > 0;
  if (flag === false && failures.length === 0) failures.push(flagOnly(flagMessage));
  return finish({ convention, failed, failures });
}

function flagOnly(message: string): BusinessFailure {
  return { message, meanings: [] };
}

/**
 * Failures from the body's error property `key`. A part of a streamed body not held (notHeld.ts: a
 * stand-in, or a field too large to keep) is never read as the server's words: one failure says so.
 */
function failuresAt(record: Body, key: string, catalogue: ErrorCatalogueId | undefined): BusinessFailure[] {
  const value = record[key];
  const notHeld = fieldsNotHeld(record).includes(key) || (isNotHeld(value) && !(Array.isArray(value) && value.length === 0));
  if (notHeld) return [flagOnly(`${key} arrived too large to keep, so its messages are not shown`)];
  return failuresFrom(value, catalogue);
}

/** Failures from an error property: a string, a list of strings or of {ErrorCode, ErrorDescription}. */
function failuresFrom(value: unknown, catalogue: ErrorCatalogueId | undefined): BusinessFailure[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    const failure = failureFrom(item, catalogue);
    return failure ? [failure] : [];
  });
}

function failureFrom(item: unknown, catalogue: ErrorCatalogueId | undefined): BusinessFailure | undefined {
  if (item === undefined || item === null || item === false) return undefined;
  if (typeof item === 'string') return item.trim() === '' ? undefined : { message: item, meanings: [] };
  if (!isJsonObject(item)) return { message: scalarText(item), meanings: [] };
  const record: Body = item;
  const code = codeOf(record.ErrorCode);
  const description = typeof record.ErrorDescription === 'string' && record.ErrorDescription.trim() !== '' ? record.ErrorDescription : undefined;
  // Without a code: its description, else a `message` (as a GraphQL answer's `errors` carry), else the item.
  if (code === undefined) return { message: description ?? (typeof record.message === 'string' && record.message.trim() !== '' ? record.message : shortJson(record)), meanings: [] };
  const meanings = catalogue ? meaningsOf(catalogue, code) : [];
  return {
    code,
    message: description ?? (meanings.length > 0 ? meanings.join(' or ') : `Error code ${code}`),
    meanings,
    ...(meanings.length > 1 ? { ambiguous: true } : {}),
    ...(catalogue && meanings.length === 0 ? { unknownCode: true } : {}),
  };
}

function codeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

function shortJson(value: unknown): string {
  return cutShown(JSON.stringify(value) ?? String(value), 200);
}
