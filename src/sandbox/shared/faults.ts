// Fault injection. One fault per request, named by the `X-Sandbox-Fault` header, or armed for the Nth
// page of a paging walk (`--fail-page STYLE:N:FAULT`, `POST /__sandbox/faults`), which fires once.
//
// Fault syntax: drop | status=CODE | delay=MS | drip=MS | malformed-json | huge-body[=BYTES] | drift
//   drop            the response starts, part of its body is sent, then the socket is destroyed
//   status=CODE     the request is answered with CODE (400-599) before any handler runs (no side effect)
//   delay=MS        the answer is held MS milliseconds (0-60000), then served normally
//   drip=MS         the normal answer, sent 1 KiB at a time with MS milliseconds between pieces
//   malformed-json  the handler runs; its JSON body is sent with a broken ending
//   huge-body       a valid 200 JSON body of 50 MB (or BYTES) instead of the handler's answer
//   drift           the handler runs; its answer departs from the contract (see driftJson below) so
//                   that contract-drift checks can be exercised
// status and huge-body run no handler, so nothing changes server-side and a retry gets the same page.
// drop, drip and malformed-json run the handler: its side effects happen (a BIDWHouse position
// advances, a Selection table is dropped after its last page), exactly as when a real network loses
// or mangles an answer the server did send.

export type Fault =
  | { readonly kind: 'drop' }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drip'; readonly ms: number }
  | { readonly kind: 'malformed-json' }
  | { readonly kind: 'huge-body'; readonly bytes: number }
  | { readonly kind: 'drift' };

export const PAGING_STYLES = [
  'page-number', 'page-headers', 'offset-remaining', 'batch-cursor',
  'export-ordinal', 'stateful-extraction', 'generic',
] as const;
export type FaultPagingStyle = (typeof PAGING_STYLES)[number];

export interface PageFaultSpec {
  readonly style: FaultPagingStyle;
  /** 1-based page of the walk: the ordinal each route documents (pageNumber, page, OFFSET, ...). */
  readonly page: number;
  readonly fault: string;
}

export const DEFAULT_HUGE_BODY_BYTES = 50 * 1024 * 1024;

export function faultToString(fault: Fault): string {
  switch (fault.kind) {
    case 'status': return `status=${fault.status}`;
    case 'delay': return `delay=${fault.ms}`;
    case 'drip': return `drip=${fault.ms}`;
    case 'huge-body': return `huge-body=${fault.bytes}`;
    default: return fault.kind;
  }
}

/** Parses one fault; throws an Error whose message says what is accepted. */
export function parseFault(text: string): Fault {
  const value = text.trim();
  const [name, arg] = value.split('=', 2) as [string, string | undefined];
  const int = (min: number, max: number): number => {
    const n = arg === undefined ? NaN : Number(arg);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`fault '${value}': ${name} needs an integer from ${min} to ${max}`);
    }
    return n;
  };
  switch (name) {
    case 'drop': if (arg === undefined) return { kind: 'drop' }; break;
    case 'malformed-json': if (arg === undefined) return { kind: 'malformed-json' }; break;
    case 'drift': if (arg === undefined) return { kind: 'drift' }; break;
    case 'status': return { kind: 'status', status: int(400, 599) };
    case 'delay': return { kind: 'delay', ms: int(0, 60_000) };
    case 'drip': return { kind: 'drip', ms: int(0, 10_000) };
    case 'huge-body':
      return { kind: 'huge-body', bytes: arg === undefined ? DEFAULT_HUGE_BODY_BYTES : int(16, 1024 * 1024 * 1024) };
    default: break;
  }
  throw new Error(`unknown fault '${value}': use drop, status=CODE, delay=MS, drip=MS, malformed-json, huge-body[=BYTES] or drift`);
}

/** Parses `STYLE:N:FAULT`, e.g. `export-ordinal:2:drop` or `page-number:3:status=500`. */
export function parsePageFault(spec: string | PageFaultSpec): { style: FaultPagingStyle; page: number; fault: Fault } {
  let style: string; let page: number; let fault: string;
  if (typeof spec === 'string') {
    const first = spec.indexOf(':');
    const second = spec.indexOf(':', first + 1);
    if (first < 0 || second < 0) throw new Error(`fail-page '${spec}': expected STYLE:N:FAULT`);
    style = spec.slice(0, first);
    page = Number(spec.slice(first + 1, second));
    fault = spec.slice(second + 1);
  } else {
    ({ style, page, fault } = spec);
  }
  if (!(PAGING_STYLES as readonly string[]).includes(style)) {
    throw new Error(`fail-page style '${style}': use one of ${PAGING_STYLES.join(', ')}`);
  }
  if (!Number.isInteger(page) || page < 1) throw new Error(`fail-page page '${String(page)}': a positive integer`);
  return { style: style as FaultPagingStyle, page, fault: parseFault(fault) };
}

interface ArmedFault { readonly style: FaultPagingStyle; readonly page: number; readonly fault: Fault }

/** The page faults armed for the whole sandbox (shared by its three origins). Each fires once. */
export class PageFaultRegistry {
  private armed: ArmedFault[] = [];

  arm(spec: string | PageFaultSpec): void {
    this.armed.push(parsePageFault(spec));
  }

  /** The fault armed for this page of this style, consumed; undefined when none. */
  take(style: FaultPagingStyle, page: number): Fault | undefined {
    const index = this.armed.findIndex((f) => f.style === style && f.page === page);
    if (index < 0) return undefined;
    const [found] = this.armed.splice(index, 1);
    return found?.fault;
  }

  list(): { style: string; page: number; fault: string }[] {
    return this.armed.map((f) => ({ style: f.style, page: f.page, fault: faultToString(f.fault) }));
  }

  clear(): void {
    this.armed = [];
  }
}

/** The field the drift fault adds to an object body; no contract documents it. */
export const DRIFT_FIELD = 'SandboxDrift';
/** The error code the drift fault puts in place of every ErrorCode; no catalogue has it. */
export const DRIFT_ERROR_CODE = 999;
/** The paging header the drift fault leaves out. */
export const DRIFT_DROPPED_HEADER = 'x-pagination-total-pages';

/**
 * The drift fault's answer: for a JSON object body, every ErrorCode becomes 999, the first field is
 * left out, the last field holding a number, boolean or string changes type (to a string, or a string
 * to a number), and a field `SandboxDrift` is added. Any other body is returned as it was (the
 * dropped X-Pagination-Total-Pages header is the drift then).
 */
export function driftJson(body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return body;
  const record = recodeErrors(value as Record<string, unknown>);
  const [first, ...rest] = Object.keys(record);
  if (first !== undefined) delete record[first];
  const scalar = [...rest].reverse().find((key) => ['number', 'boolean', 'string'].includes(typeof record[key]));
  if (scalar !== undefined) {
    const old = record[scalar];
    record[scalar] = typeof old === 'string' ? old.length : String(old);
  }
  record[DRIFT_FIELD] = 'not in the contract';
  return JSON.stringify(record);
}

function recodeErrors(record: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['Errors', 'errors', 'Error']) {
    const list = record[key];
    const items = Array.isArray(list) ? list : [list];
    for (const item of items) {
      if (typeof item === 'object' && item !== null && 'ErrorCode' in item) {
        (item as Record<string, unknown>)['ErrorCode'] = DRIFT_ERROR_CODE;
      }
    }
  }
  return record;
}
