// The paging loop as a Python 3 function on the standard library only (urllib). The same turn as the
// TypeScript one and the walker (see typescript.ts); the style's parts come from the strategy's `loop`.
import type { LoopAdvance } from '../../paging/loop';
import { spliceSecrets, type SnippetLanguage } from '../snippet';
import { NumberText } from '../../json/numberText';
import { catalogueLines, catalogueNote, firstBody, loopComment, nameWords, numberNotCarried, RETRIES, snakeName, type LoopInput } from './common';
import { pythonSend, TOTALS_PY } from './loopParts';
import { pythonRowsOf } from './rowsOf';

const PY: SnippetLanguage = {
  id: 'python', label: 'Python', target: 'python', client: 'python3', languageId: 'python', comment: '#', quote: '"',
  env: (n) => `os.environ.get("${n}", "")`, join: ' + ',
};

const q = (text: string): string => JSON.stringify(text);

/** A JSON value as a Python literal, indented by four spaces a level. */
function pyLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  // A whole number JSON.parse would change is exact as a Python int; any other such number is refused.
  if (value instanceof NumberText) {
    if (/^-?\d+$/.test(value.text)) return value.text;
    throw numberNotCarried(value.text, 'Python');
  }
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${pyLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${inner}${q(k)}: ${pyLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

function acceptPart(advance: LoopAdvance): string[] {
  switch (advance.kind) {
    case 'page-number': return [
      `        asked = num(query_value(request["url"], ${q(advance.param)}))`,
      `        served = num(field(body, ${q(advance.servedField)}))`,
      `        out_of_range = field(body, ${q(advance.outOfRangeFlag)}) is False`,
      '        if asked is not None and served is not None and served != asked and not out_of_range:',
      `            return end("inconsistent", f"page {asked} was asked for but the response says ${advance.servedField} {served}: the server ignored the page it was sent")`,
      '        if out_of_range:',
      '            if pages == 0:',
      `                raise PagingError("the first page reports ${advance.outOfRangeFlag}=false" + said(business_failures(body)), 1, 0)`,
      `            return end("complete", "page out of range (200 with ${advance.outOfRangeFlag}=false)")`,
    ];
    case 'page-headers': return [
      `        asked = num(query_value(request["url"], ${q(advance.param)}))`,
      `        served = num(response_headers.get(${q(advance.pageHeader)}))`,
      '        if asked is not None and served is not None and served != asked:',
      `            return end("inconsistent", f"page {asked} was asked for but ${advance.pageHeader} says {served}: the server ignored the page it was sent")`,
    ];
    default: return [];
  }
}

function nextPart(advance: LoopAdvance): string[] {
  switch (advance.kind) {
    case 'page-number': return [
      `        current = first_of(num(field(body, ${q(advance.servedField)})), num(query_value(request["url"], ${q(advance.param)})), 1)`,
      '        if first_page is None:',
      '            first_page = current',
      `        size = first_of(num(field(body, ${q(advance.sizeField)})), num(query_value(request["url"], ${q(advance.sizeParam)})))`,
      `        total = num(field(body, ${q(advance.totalField)}))`,
      '        if len(page_rows) == 0:',
      '            return end("complete", f"page {current} is empty")',
      '        if total is not None and size is not None and current * size >= total:',
      `            return end("complete", f"all {total} orders seen (${advance.totalField}) by page {current}")`,
      `        next_request = with_query(request, ${q(advance.param)}, current + 1)`,
    ];
    case 'page-headers': return [
      `        current = first_of(num(response_headers.get(${q(advance.pageHeader)})), num(query_value(request["url"], ${q(advance.param)})), 1)`,
      '        if first_page is None:',
      '            first_page = current',
      `        total_pages = num(response_headers.get(${q(advance.totalPagesHeader)}))`,
      '        if total_pages is None:',
      `            return end("complete", "the response has no ${advance.totalPagesHeader} header, so there is no known next page")`,
      '        if current >= total_pages:',
      `            return end("complete", f"page {current} of {total_pages} (${advance.totalPagesHeader}) reached")`,
      '        if len(page_rows) == 0:',
      '            return end("complete", f"page {current} is empty")',
      `        next_request = with_query(request, ${q(advance.param)}, current + 1)`,
    ];
    case 'offset': return [
      '        if len(page_rows) == 0:',
      '            return end("complete", "empty page (Remaining is not trusted as the end)")',
      `        offset = first_of(num(field(request.get("body"), ${q(advance.field)})), 0)`,
      `        next_request = with_body(request, {${q(advance.field)}: offset + len(page_rows)})`,
    ];
    case 'cursor': return [
      '        if len(page_rows) == 0:',
      '            return end("complete", "empty batch")',
      `        if num(field(body, ${q(advance.remainingField)})) == 0:`,
      `            return end("complete", "${advance.remainingField} = 0")`,
      `        returned = field(body, ${q(advance.field)})`,
      '        if returned is None or returned == "":',
      `            raise PagingError("the response has no ${advance.field} to send back, and a batch cursor is never invented", pages + 1, len(rows))`,
      `        next_request = with_body(request, {${q(advance.field)}: returned})`,
    ];
    case 'ordinal': return [
      `        ordinal = first_of(num(field(request.get("body"), ${q(advance.field)})), 1)`,
      '        if len(page_rows) == 0:',
      `            return end("complete", f"${advance.field} {ordinal} is empty (the export is complete)")`,
      '        if len(page_rows) < PAGE_ROWS:',
      `            return end("complete", f"${advance.field} {ordinal} is short ({len(page_rows)} < {PAGE_ROWS} rows): the last page")`,
      `        sent_table = field(request.get("body"), ${q(advance.tableField)})`,
      `        table = sent_table.strip() if isinstance(sent_table, str) and sent_table.strip() != "" else field(body, ${q(advance.tableField)})`,
      '        if not isinstance(table, str) or table.strip() == "":',
      `            raise PagingError("the first response returned no ${advance.tableField}, so the next page cannot be asked for", pages + 1, len(rows))`,
      `        next_request = with_body(request, {${q(advance.field)}: ordinal + 1, ${q(advance.tableField)}: table})`,
    ];
    case 'same-call': return [
      '        if len(page_rows) == 0:',
      '            return end("complete", "empty result: taken as the end of the extraction (the contract does not say how the end shows)")',
      '        next_request = request',
    ];
  }
}

function requestLiteral(input: LoopInput): string[] {
  const { request } = input;
  const body = firstBody(input);
  const headers = Object.entries(request.headers).map(([k, v]) => `            ${q(k)}: ${q(v)},`);
  const lines = ['    request = {', `        "method": ${q(request.method.toUpperCase())},`, `        "url": ${q(request.url)},`, '        "headers": {', ...headers, '        },'];
  if (body) lines.push(`        "body": ${body.json ? pyLiteral(body.value, '        ') : q(String(body.value))},`);
  lines.push('    }');
  return spliceSecrets(lines.join('\n'), PY, input.secrets).split('\n');
}

function helpers(input: LoopInput): string[] {
  const { loop } = input;
  const entries = catalogueLines(input.operation, '    ');
  return [
    'import json',
    'import os',
    'import time',
    'import urllib.error',
    'import urllib.parse',
    'import urllib.request',
    'from email.utils import parsedate_to_datetime',
    '',
    '',
    'class PagingError(Exception):',
    '    """Why a walk failed; the rows handed to on_page before it are kept. `codes` are business error codes."""',
    '',
    '    def __init__(self, message, page, rows_kept, codes=()):',
    '        super().__init__(f"page {page}: {message}")',
    '        self.page = page',
    '        self.rows_kept = rows_kept',
    '        self.codes = list(codes)',
    '',
    '',
    `# ${catalogueNote(input.operation)}`,
    `CATALOGUE = {${entries.length ? '\n' + entries.join('\n') + '\n' : ''}}`,
    ...(loop.advance.kind === 'ordinal' ? [`PAGE_ROWS = ${loop.advance.pageRows}`] : []),
    `MAX_RETRIES = ${RETRIES.maxRetries}`,
    `MAX_RETRY_DELAY_S = ${RETRIES.maxRetryDelayMs / 1000}`,
    `RETRY_DELAY_S = ${RETRIES.retryDelayMs / 1000}`,
    '',
    '',
    'def field(body, name):',
    '    return body.get(name) if isinstance(body, dict) else None',
    '',
    '',
    'def num(value):',
    '    if isinstance(value, bool):',
    '        return None',
    '    if isinstance(value, (int, float)):',
    '        return value',
    '    if isinstance(value, str):',
    '        try:',
    '            number = float(value.strip())',
    '        except ValueError:',
    '            return None',
    '        return int(number) if number.is_integer() else number',
    '    return None',
    '',
    '',
    'def first_of(*values):',
    '    return next((v for v in values if v is not None), None)',
    '',
    '',
    'def query_value(url, name):',
    '    values = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query, keep_blank_values=True).get(name)',
    '    return values[0] if values else None',
    '',
    '',
    'def with_query(request, name, value):',
    '    parts = urllib.parse.urlsplit(request["url"])',
    '    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if k != name]',
    '    query.append((name, str(value)))',
    '    return {**request, "url": urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))}',
    '',
    '',
    'def with_body(request, fields):',
    '    if not isinstance(request.get("body"), dict):',
    '        raise PagingError("the request body is not a JSON object", 0, 0)',
    '    return {**request, "body": {**request["body"], **fields}}',
    '',
    '',
    'def identity(request):',
    '    return request["method"] + " " + request["url"] + "\\n" + json.dumps(request.get("body"))',
    '',
    '',
    'def retry_after_s(value):',
    '    if value is None:',
    '        return None',
    '    if value.strip().isdigit():',
    '        return int(value.strip())',
    '    try:',
    '        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())',
    '    except (TypeError, ValueError):',
    '        return None',
    '',
    '',
    ...pythonSend(input),
    '',
    '',
    ...pythonRowsOf(loop),
    '',
    '',
    'def business_failures(body):',
    '    """A business failure inside a 200 (the six conventions of the customer-engagement contract §7.2)."""',
    '    if not isinstance(body, dict):',
    '        return []',
    '',
    '    def listed(value):',
    '        items = [] if value is None else value if isinstance(value, list) else [value]',
    '        out = []',
    '        for item in items:',
    '            if item is None or item is False or (isinstance(item, str) and item.strip() == ""):',
    '                continue',
    '            code = num(field(item, "ErrorCode"))',
    '            text = field(item, "ErrorDescription")',
    '            if code is None:',
    '                out.append({"message": item if isinstance(item, str) else text if isinstance(text, str) else json.dumps(item)})',
    '                continue',
    '            meanings = CATALOGUE.get(code, [])',
    '            message = text if isinstance(text, str) and text.strip() else f"Error code {code}"',
    '            out.append({"code": code, "message": message + (" (" + " or ".join(meanings) + ")" if meanings else "")})',
    '        return out',
    '',
    '    def flagged(flag, errors, words):',
    '        if flag is False and not errors:',
    '            return [{"message": words}]',
    '        return errors if flag is False or errors else []',
    '',
    '    if "ResponseStatus" in body:',
    '        return flagged(False, listed(body.get("Errors")), "ResponseStatus is false") if body["ResponseStatus"] is False else []',
    '    if "Success" in body:',
    '        errors = listed(body.get("Error"))',
    '        return flagged(body["Success"], listed(body.get("Message")) if not errors and body["Success"] is False else errors, "Success is false")',
    '    if "Response" in body:',
    '        return flagged(body["Response"], listed(body.get("Errors") if "Errors" in body else body.get("Error")), "Response is false")',
    '    if "response" in body or "errors" in body:',
    '        return flagged(body.get("response"), listed(body.get("errors")), "response is false")',
    '    if "Error" in body:',
    '        return listed(body["Error"])',
    '    return []',
    '',
    '',
    'def said(failures):',
    '    return ": " + "; ".join(f["message"] for f in failures) if failures else ""',
    '',
    '',
    'def row_key(row):',
    '    return json.dumps(row, separators=(",", ":"), ensure_ascii=False) if isinstance(row, (dict, list)) else None',
  ];
}

export function pythonLoop(input: LoopInput): string {
  const name = snakeName(nameWords(input));
  const { loop } = input;
  const sameCall = loop.advance.kind === 'same-call';
  const facts = loop.facts.map((f) => `            ${q(f.name)}: num(${f.from === 'header' ? `response_headers.get(${q(f.name)})` : `field(body, ${q(f.name)})`}),`);
  const body = [
    `def ${name}(on_page=None, max_pages=10000):`,
    '    """Walks every page; returns {"rows", "verdict", "reason", "pages"}. on_page(rows, page) runs before the next request."""',
    ...requestLiteral(input),
    '    rows = []',
    '    answered = set()',
    '    first_facts = None',
    '    previous = None',
    '    pages = 0',
    '    sent = 0',
    '    retries = 0',
    '',
    ...(facts.length ? [
      '    first_page = None',
      '',
      '    def end(verdict, reason):',
      '        # Complete only with every page and row the first page announced (as apiwb run judges a walk).',
      '        missing = by_totals(first_facts, first_page, pages, len(rows)) if verdict == "complete" else None',
      '        if missing is not None:',
      '            verdict, reason = "inconsistent", missing',
      '        return {"rows": rows, "verdict": verdict, "reason": reason, "pages": pages}',
    ] : [
      '    def end(verdict, reason):',
      '        return {"rows": rows, "verdict": verdict, "reason": reason, "pages": pages}',
    ]),
    '',
    '    while True:',
    '        if sent >= max_pages:',
    '            return end("cut-short", f"stopped after {sent} request(s) (max_pages), not at the end of the data")',
    '        sent += 1',
    '        status, reason, response_headers, text = send(request)',
    `        if status == 429${sameCall ? ' or not 200 <= status <= 299' : ''}:`,
    '            # 429 waits for Retry-After' + (sameCall ? '; an extraction error is not the end of data: the same call again.' : '.'),
    '            wait_s = first_of(retry_after_s(response_headers.get("Retry-After")), RETRY_DELAY_S)',
    '            if retries >= MAX_RETRIES:',
    '                raise PagingError(f"HTTP {status}, {retries + 1} times in a row; gave up after {MAX_RETRIES} retries", pages + 1, len(rows))',
    '            if status == 429 and wait_s > MAX_RETRY_DELAY_S:',
    '                raise PagingError(f"HTTP 429 asks to wait {wait_s} s, longer than this walk allows", pages + 1, len(rows))',
    '            retries += 1',
    '            time.sleep(min(wait_s, MAX_RETRY_DELAY_S))',
    '            continue',
    '        if not 200 <= status <= 299:',
    '            raise PagingError(f"HTTP {status} {reason}: {text[:200]}", pages + 1, len(rows))',
    '        try:',
    '            body = json.loads(text)',
    '        except ValueError as error:',
    `            raise PagingError(f"the body is not valid JSON ({error})${sameCall ? '; the server may already have moved past these rows, so they may be missing' : ''}", pages + 1, len(rows)) from error`,
    ...acceptPart(loop.advance),
    '        failures = business_failures(body)',
    '        if failures:',
    '            raise PagingError("a business error inside HTTP 200" + said(failures), pages + 1, len(rows), [f["code"] for f in failures if "code" in f])',
    '        page_rows = rows_of(body)',
    '        if page_rows is None:',
    `            raise PagingError(${q(loop.rows.missing)}, pages + 1, len(rows))`,
    ...(facts.length ? [
      '        # Facts of the first page must hold over the whole walk.',
      '        facts = {',
      ...facts,
      '        }',
      '        for fact, was in (first_facts or {}).items():',
      '            if was is None:',
      '                continue',
      '            if facts[fact] is None:',
      '                return end("inconsistent", f"{fact} was {was} on the first page but is missing on page {pages + 1}, so the end of the walk is no longer known")',
      '            if facts[fact] != was:',
      '                return end("inconsistent", f"{fact} changed from {was} to {facts[fact]} on page {pages + 1}")',
    ] : []),
    '        keys = {k for k in (row_key(r) for r in page_rows if isinstance(r, dict)) if k is not None}',
    '        if previous is not None and page_rows and page_rows == previous[0]:',
    '            return end("inconsistent", f"page {pages + 1} holds exactly the rows of page {pages}: the server ignored the page it was asked for")',
    '        repeated = len(keys & previous[1]) if previous is not None else 0',
    '        if repeated > 0:',
    '            return end("inconsistent", f"{repeated} row(s) of page {pages + 1} were already on page {pages}: the pages overlap")',
    '        # Persist first: nothing below, least of all the next request, runs before the page is kept.',
    '        if on_page is not None:',
    '            on_page(page_rows, pages + 1)',
    '        rows.extend(page_rows)',
    '        pages += 1',
    '        retries = 0',
    ...(facts.length ? ['        if first_facts is None:', '            first_facts = facts'] : []),
    '        previous = (page_rows, keys)',
    '        answered.add(identity(request))',
    ...nextPart(loop.advance),
    ...(sameCall ? [] : [
      '        if identity(next_request) in answered:',
      '            return end("inconsistent", "the server\'s paging points back to a request already answered: a repeated cursor, page or offset")',
    ]),
    '        request = next_request',
  ];
  const comment = loopComment(input, name, { onPage: 'on_page', maxPages: 'max_pages' }).map((l) => `# ${l}`.trimEnd());
  const totals = input.loop.facts.length ? [...TOTALS_PY, '', ''] : [];
  return [...comment, '', ...helpers(input), '', '', ...totals, ...body, ''].join('\n');
}
