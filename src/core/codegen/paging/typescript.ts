// The paging loop as a TypeScript module for Node 18+ (its global fetch; no dependency). The turn is
// the walker's (src/core/paging/walker.ts): send -> retry only what the walker retries (429 with
// Retry-After; any non-2xx of a stateful extraction) -> accept -> business errors -> facts -> repeated or
// overlapping rows -> onPage (persist) -> next request -> a request already answered is inconsistent.
// The style's parts come from the strategy's `loop`; this file only says them in TypeScript.
import type { LoopAdvance } from '../../paging/loop';
import { spliceSecrets, type SnippetLanguage } from '../snippet';
import { camelName, catalogueLines, catalogueNote, firstBody, firstNumberText, loopComment, nameWords, numberNotCarried, RETRIES, type LoopInput } from './common';
import { TOTALS_TS, typescriptSend } from './loopParts';
import { typescriptRowsOf } from './rowsOf';

const TS: SnippetLanguage = {
  id: 'ts', label: 'TypeScript', target: 'node', client: 'fetch', languageId: 'typescript', comment: '//', quote: '"',
  env: (n) => `(process.env.${n} ?? "")`, join: ' + ',
};

const q = (text: string): string => JSON.stringify(text);

/** The style's checks of a page before its rows count (walker: strategy.accept). */
function acceptPart(advance: LoopAdvance): string[] {
  switch (advance.kind) {
    case 'page-number': return [
      `    const asked = num(new URL(request.url).searchParams.get(${q(advance.param)}));`,
      `    const served = num(field(body, ${q(advance.servedField)}));`,
      `    const outOfRange = field(body, ${q(advance.outOfRangeFlag)}) === false;`,
      '    if (asked !== undefined && served !== undefined && served !== asked && !outOfRange) {',
      `      return end("inconsistent", "page " + asked + " was asked for but the response says ${advance.servedField} " + served + ": the server ignored the page it was sent");`,
      '    }',
      '    if (outOfRange) {',
      `      if (pages === 0) throw new PagingError("the first page reports ${advance.outOfRangeFlag}=false" + said(businessFailures(body)), 1, 0);`,
      `      return end("complete", "page out of range (200 with ${advance.outOfRangeFlag}=false)");`,
      '    }',
    ];
    case 'page-headers': return [
      `    const asked = num(new URL(request.url).searchParams.get(${q(advance.param)}));`,
      `    const served = num(response.headers.get(${q(advance.pageHeader)}));`,
      '    if (asked !== undefined && served !== undefined && served !== asked) {',
      `      return end("inconsistent", "page " + asked + " was asked for but ${advance.pageHeader} says " + served + ": the server ignored the page it was sent");`,
      '    }',
    ];
    default: return [];
  }
}

/** The next request from the page just kept (walker: strategy.next). */
function nextPart(advance: LoopAdvance): string[] {
  switch (advance.kind) {
    case 'page-number': return [
      `    const current = num(field(body, ${q(advance.servedField)})) ?? num(new URL(request.url).searchParams.get(${q(advance.param)})) ?? 1;`,
      '    firstPage ??= current;',
      `    const size = num(field(body, ${q(advance.sizeField)})) ?? num(new URL(request.url).searchParams.get(${q(advance.sizeParam)}));`,
      `    const total = num(field(body, ${q(advance.totalField)}));`,
      '    if (pageRows.length === 0) return end("complete", "page " + current + " is empty");',
      `    if (total !== undefined && size !== undefined && current * size >= total) return end("complete", "all " + total + " orders seen (${advance.totalField}) by page " + current);`,
      `    const next = withQuery(request, ${q(advance.param)}, current + 1);`,
    ];
    case 'page-headers': return [
      `    const current = num(response.headers.get(${q(advance.pageHeader)})) ?? num(new URL(request.url).searchParams.get(${q(advance.param)})) ?? 1;`,
      '    firstPage ??= current;',
      `    const totalPages = num(response.headers.get(${q(advance.totalPagesHeader)}));`,
      `    if (totalPages === undefined) return end("complete", "the response has no ${advance.totalPagesHeader} header, so there is no known next page");`,
      `    if (current >= totalPages) return end("complete", "page " + current + " of " + totalPages + " (${advance.totalPagesHeader}) reached");`,
      '    if (pageRows.length === 0) return end("complete", "page " + current + " is empty");',
      `    const next = withQuery(request, ${q(advance.param)}, current + 1);`,
    ];
    case 'offset': return [
      '    if (pageRows.length === 0) return end("complete", "empty page (Remaining is not trusted as the end)");',
      `    const offset = num(bodyField(request, ${q(advance.field)})) ?? 0;`,
      `    const next = withBody(request, { ${q(advance.field)}: offset + pageRows.length });`,
    ];
    case 'cursor': return [
      '    if (pageRows.length === 0) return end("complete", "empty batch");',
      `    if (num(field(body, ${q(advance.remainingField)})) === 0) return end("complete", "${advance.remainingField} = 0");`,
      `    const returned = field(body, ${q(advance.field)});`,
      '    if (returned === undefined || returned === null || returned === "") {',
      `      throw new PagingError("the response has no ${advance.field} to send back, and a batch cursor is never invented", pages + 1, rows.length);`,
      '    }',
      `    const next = withBody(request, { ${q(advance.field)}: returned });`,
    ];
    case 'ordinal': return [
      `    const ordinal = num(bodyField(request, ${q(advance.field)})) ?? 1;`,
      `    if (pageRows.length === 0) return end("complete", "${advance.field} " + ordinal + " is empty (the export is complete)");`,
      `    if (pageRows.length < PAGE_ROWS) return end("complete", "${advance.field} " + ordinal + " is short (" + pageRows.length + " < " + PAGE_ROWS + " rows): the last page");`,
      `    const sentTable = bodyField(request, ${q(advance.tableField)});`,
      `    const table = typeof sentTable === "string" && sentTable.trim() !== "" ? sentTable.trim() : field(body, ${q(advance.tableField)});`,
      '    if (typeof table !== "string" || table.trim() === "") {',
      `      throw new PagingError("the first response returned no ${advance.tableField}, so the next page cannot be asked for", pages + 1, rows.length);`,
      '    }',
      `    const next = withBody(request, { ${q(advance.field)}: ordinal + 1, ${q(advance.tableField)}: table });`,
    ];
    case 'same-call': return [
      '    if (pageRows.length === 0) return end("complete", "empty result: taken as the end of the extraction (the contract does not say how the end shows)");',
      '    const next = request;',
    ];
  }
}

function requestLiteral(input: LoopInput): string[] {
  const { request } = input;
  const body = firstBody(input);
  // A JavaScript number cannot hold 12345678901234567890: such a body is not made into a loop that would change it.
  if (body?.lossy) throw numberNotCarried(firstNumberText(body.value) ?? '', 'TypeScript');
  const headers = Object.entries(request.headers).map(([k, v]) => `      ${q(k)}: ${q(v)},`);
  const lines = ['  let request: Req = {', `    method: ${q(request.method.toUpperCase())},`, `    url: ${q(request.url)},`, '    headers: {', ...headers, '    },'];
  if (body) lines.push(`    body: ${body.json ? JSON.stringify(body.value, null, 2).split('\n').join('\n    ') : q(String(body.value))},`);
  lines.push('  };');
  return spliceSecrets(lines.join('\n'), TS, input.secrets).split('\n');
}

function helpers(input: LoopInput): string[] {
  const { loop } = input;
  const entries = catalogueLines(input.operation, '  ');
  return [
    'export type Verdict = "complete" | "cut-short" | "inconsistent";',
    '',
    'export interface WalkResult {',
    '  rows: unknown[];',
    '  verdict: Verdict;',
    '  reason: string;',
    '  pages: number;',
    '}',
    '',
    'export interface WalkOptions {',
    '  /** Called with each page\'s rows BEFORE the next page is asked for: persist them here. */',
    '  onPage?: (rows: unknown[], page: number) => void | Promise<void>;',
    '  /** Requests this walk may send (retries included); past it the walk is cut short. */',
    '  maxPages?: number;',
    '}',
    '',
    '/** Why a walk failed; the rows handed to onPage before it are kept. `codes` are business error codes. */',
    'export class PagingError extends Error {',
    '  constructor(message: string, readonly page: number, readonly rowsKept: number, readonly codes: number[] = []) {',
    '    super("page " + page + ": " + message);',
    '    this.name = "PagingError";',
    '  }',
    '}',
    '',
    `// ${catalogueNote(input.operation)}`,
    `const CATALOGUE: Record<number, string[]> = {${entries.length ? '\n' + entries.join('\n') + '\n' : ''}};`,
    ...(loop.advance.kind === 'ordinal' ? [`const PAGE_ROWS = ${loop.advance.pageRows};`] : []),
    `const MAX_RETRIES = ${RETRIES.maxRetries};`,
    `const MAX_RETRY_DELAY_MS = ${RETRIES.maxRetryDelayMs};`,
    `const RETRY_DELAY_MS = ${RETRIES.retryDelayMs};`,
    '',
    'type Req = { method: string; url: string; headers: Record<string, string>; body?: unknown };',
    'type Json = Record<string, unknown>;',
    '',
    'const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);',
    'const field = (body: unknown, name: string): unknown => (isRecord(body) ? body[name] : undefined);',
    'const bodyField = (req: Req, name: string): unknown => field(req.body, name);',
    'function num(v: unknown): number | undefined {',
    '  if (typeof v === "number" && Number.isFinite(v)) return v;',
    '  if (typeof v === "string" && /^\\s*-?\\d+(\\.\\d+)?\\s*$/.test(v)) return Number(v);',
    '  return undefined;',
    '}',
    'function withQuery(req: Req, name: string, value: number): Req {',
    '  const url = new URL(req.url);',
    '  url.searchParams.set(name, String(value));',
    '  return { ...req, url: url.toString() };',
    '}',
    'function withBody(req: Req, fields: Json): Req {',
    '  if (!isRecord(req.body)) throw new PagingError("the request body is not a JSON object", 0, 0);',
    '  return { ...req, body: { ...req.body, ...fields } };',
    '}',
    'const identity = (req: Req): string => req.method + " " + req.url + "\\n" + JSON.stringify(req.body ?? "");',
    'function retryAfterMs(value: string | null): number | undefined {',
    '  if (value === null) return undefined;',
    '  if (/^\\d+$/.test(value.trim())) return Number(value.trim()) * 1000;',
    '  const date = Date.parse(value);',
    '  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());',
    '}',
    '',
    ...typescriptRowsOf(loop),
    '',
    '/** A business failure inside a 200 (the six conventions of the customer-engagement contract §7.2): its errors, else []. */',
    'function businessFailures(body: unknown): { code?: number; message: string }[] {',
    '  if (!isRecord(body)) return [];',
    '  const list = (v: unknown): { code?: number; message: string }[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]).flatMap((item) => {',
    '    if (item === undefined || item === null || item === false || (typeof item === "string" && item.trim() === "")) return [];',
    '    const code = num(field(item, "ErrorCode"));',
    '    const said = field(item, "ErrorDescription");',
    '    if (code === undefined) return [{ message: typeof item === "string" ? item : typeof said === "string" ? said : JSON.stringify(item) }];',
    '    const meanings = CATALOGUE[code] ?? [];',
    '    return [{ code, message: (typeof said === "string" && said.trim() ? said : "Error code " + code) + (meanings.length ? " (" + meanings.join(" or ") + ")" : "") }];',
    '  });',
    '  const flagged = (flag: unknown, errors: { code?: number; message: string }[], words: string) =>',
    '    flag === false && errors.length === 0 ? [{ message: words }] : flag === false || errors.length > 0 ? errors : [];',
    '  if ("ResponseStatus" in body) return body.ResponseStatus === false ? flagged(false, list(body.Errors), "ResponseStatus is false") : [];',
    '  if ("Success" in body) {',
    '    const errors = list(body.Error);',
    '    return flagged(body.Success, errors.length === 0 && body.Success === false ? list(body.Message) : errors, "Success is false");',
    '  }',
    '  if ("Response" in body) return flagged(body.Response, list("Errors" in body ? body.Errors : body.Error), "Response is false");',
    '  if ("response" in body || "errors" in body) return flagged(body.response, list(body.errors), "response is false");',
    '  if ("Error" in body) return list(body.Error);',
    '  return [];',
    '}',
    'const said = (failures: { message: string }[]): string => (failures.length ? ": " + failures.map((f) => f.message).join("; ") : "");',
  ];
}

export function typescriptLoop(input: LoopInput): string {
  const name = camelName(nameWords(input));
  const { loop } = input;
  const sameCall = loop.advance.kind === 'same-call';
  const facts = loop.facts.map((f) => `      ${q(f.name)}: num(${f.from === 'header' ? `response.headers.get(${q(f.name)})` : `field(body, ${q(f.name)})`}),`);
  const body = [
    `export async function ${name}(options: WalkOptions = {}): Promise<WalkResult> {`,
    ...requestLiteral(input),
    '  const maxPages = options.maxPages ?? 10_000;',
    '  const rows: unknown[] = [];',
    '  const answered = new Set<string>();',
    '  let firstFacts: Record<string, number | undefined> | undefined;',
    '  let previous: { text: string; rows: Set<string> } | undefined;',
    '  let pages = 0;',
    '  let sent = 0;',
    '  let retries = 0;',
    ...(facts.length ? [
      '  let firstPage: number | undefined;',
      '  const end = (verdict: Verdict, reason: string): WalkResult => {',
      '    // Complete only with every page and row the first page announced (as apiwb run judges a walk).',
      '    const missing = verdict === "complete" ? byTotals(firstFacts, firstPage, pages, rows.length) : undefined;',
      '    return missing === undefined ? { rows, verdict, reason, pages } : { rows, verdict: "inconsistent", reason: missing, pages };',
      '  };',
    ] : ['  const end = (verdict: Verdict, reason: string): WalkResult => ({ rows, verdict, reason, pages });']),
    '  for (;;) {',
    '    if (sent >= maxPages) return end("cut-short", "stopped after " + sent + " request(s) (maxPages), not at the end of the data");',
    '    sent++;',
    '    const response = await send(request);',
    '    const text = await response.text();',
    `    const retryable = response.status === 429${sameCall ? ' || !response.ok' : ''};`,
    '    if (retryable) {',
    '      // 429 waits for Retry-After' + (sameCall ? '; an extraction error is not the end of data: the same call again.' : '.'),
    '      const waitMs = retryAfterMs(response.headers.get("retry-after")) ?? RETRY_DELAY_MS;',
    '      if (retries >= MAX_RETRIES) throw new PagingError("HTTP " + response.status + ", " + (retries + 1) + " times in a row; gave up after " + MAX_RETRIES + " retries", pages + 1, rows.length);',
    '      if (response.status === 429 && waitMs > MAX_RETRY_DELAY_MS) throw new PagingError("HTTP 429 asks to wait " + Math.ceil(waitMs / 1000) + " s, longer than this walk allows", pages + 1, rows.length);',
    '      retries++;',
    '      await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, MAX_RETRY_DELAY_MS)));',
    '      continue;',
    '    }',
    '    if (!response.ok) throw new PagingError("HTTP " + response.status + " " + response.statusText + ": " + text.slice(0, 200), pages + 1, rows.length);',
    '    let body: unknown;',
    '    try {',
    '      body = JSON.parse(text);',
    '    } catch (error) {',
    `      throw new PagingError("the body is not valid JSON (" + String(error) + ")${sameCall ? '; the server may already have moved past these rows, so they may be missing' : ''}", pages + 1, rows.length);`,
    '    }',
    ...acceptPart(loop.advance),
    '    const failures = businessFailures(body);',
    '    if (failures.length > 0) throw new PagingError("a business error inside HTTP 200" + said(failures), pages + 1, rows.length, failures.flatMap((f) => (f.code === undefined ? [] : [f.code])));',
    '    const pageRows = rowsOf(body);',
    `    if (!pageRows) throw new PagingError(${q(loop.rows.missing)}, pages + 1, rows.length);`,
    ...(facts.length ? [
      '    // Facts of the first page must hold over the whole walk.',
      '    const facts: Record<string, number | undefined> = {',
      ...facts,
      '    };',
      '    for (const [fact, was] of Object.entries(firstFacts ?? {})) {',
      '      if (was === undefined) continue;',
      '      if (facts[fact] === undefined) return end("inconsistent", fact + " was " + was + " on the first page but is missing on page " + (pages + 1) + ", so the end of the walk is no longer known");',
      '      if (facts[fact] !== was) return end("inconsistent", fact + " changed from " + was + " to " + facts[fact] + " on page " + (pages + 1));',
      '    }',
    ] : []),
    '    const pageText = JSON.stringify(pageRows);',
    '    const keys = new Set(pageRows.filter((r) => typeof r === "object" && r !== null).map((r) => JSON.stringify(r)));',
    '    if (previous && pageRows.length > 0 && pageText === previous.text) return end("inconsistent", "page " + (pages + 1) + " holds exactly the rows of page " + pages + ": the server ignored the page it was asked for");',
    '    const repeated = previous ? [...keys].filter((k) => previous!.rows.has(k)).length : 0;',
    '    if (repeated > 0) return end("inconsistent", repeated + " row(s) of page " + (pages + 1) + " were already on page " + pages + ": the pages overlap");',
    '    // Persist first: nothing below, least of all the next request, runs before the page is kept.',
    '    await options.onPage?.(pageRows, pages + 1);',
    '    rows.push(...pageRows);',
    '    pages++;',
    '    retries = 0;',
    ...(facts.length ? ['    firstFacts ??= facts;'] : []),
    '    previous = { text: pageText, rows: keys };',
    '    answered.add(identity(request));',
    ...nextPart(loop.advance),
    ...(sameCall ? [] : [
      '    if (answered.has(identity(next))) return end("inconsistent", "the server\'s paging points back to a request already answered: a repeated cursor, page or offset");',
    ]),
    '    request = next;',
    '  }',
    '}',
  ];
  const comment = loopComment(input, name, { onPage: 'onPage', maxPages: 'maxPages' }).map((l) => `// ${l}`.trimEnd());
  const totals = input.loop.facts.length ? ['', ...TOTALS_TS] : [];
  return [...comment, '', ...helpers(input), '', ...typescriptSend(input), ...totals, '', ...body, ''].join('\n');
}
