// Parts of a generated paging loop written once per language, side by side so the two stay alike: its
// one way to send (redirects followed by hand, a credential header never carried to another origin, none
// followed under # @no-redirect, as `apiwb run`), and the walk's end judged against the totals the first
// page announced (src/core/paging/walkRate.ts missingByTotals, in the loop's own language).
import { credentialHeaderNames, MAX_REDIRECTS, type LoopInput } from './common';

const q = (text: string): string => JSON.stringify(text);

/** The loop's one way to send: redirects followed by hand, so a credential header stays on its origin. */
export function typescriptSend(input: LoopInput): string[] {
  return [
    '/** Header names that carry a credential: never sent on to another origin a redirect points at. */',
    `const CREDENTIAL_HEADERS = new Set<string>(${JSON.stringify(credentialHeaderNames(input))});`,
    `const FOLLOW_REDIRECTS = ${String(input.followRedirects)};`,
    `const MAX_REDIRECTS = ${MAX_REDIRECTS};`,
    '',
    'async function send(request: Req): Promise<Response> {',
    '  let { url, method } = request;',
    '  let headers: Record<string, string> = { ...request.headers };',
    '  let body = request.body === undefined ? undefined : typeof request.body === "string" ? request.body : JSON.stringify(request.body);',
    '  for (let hops = 0; ; hops++) {',
    '    const response = await fetch(url, { method, headers, body, redirect: "manual" });',
    '    const location = response.headers.get("location");',
    '    if (!FOLLOW_REDIRECTS || hops >= MAX_REDIRECTS || response.status < 300 || response.status > 399 || location === null) return response;',
    '    await response.body?.cancel();',
    '    const next = new URL(location, url);',
    '    if (next.origin !== new URL(url).origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));',
    '    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {',
    '      method = "GET";',
    '      body = undefined;',
    '    }',
    '    url = next.href;',
    '  }',
    '}',
  ];
}

/** walkRate.ts missingByTotals in the loop's words: fewer (or more) pages or rows than the first page announced. */
export const TOTALS_TS = [
  'function byTotals(facts: Record<string, number | undefined> | undefined, firstPage: number | undefined, pages: number, rows: number): string | undefined {',
  '  if (!facts || firstPage === undefined) return undefined;',
  '  const size = facts["X-Pagination-Per-Page"] ?? facts["PageSize"];',
  '  const totalRows = facts["X-Pagination-Total-Results"] ?? facts["TotalOrders"];',
  '  const totalPages = facts["X-Pagination-Total-Pages"] ?? (totalRows !== undefined && size ? Math.ceil(totalRows / size) : undefined);',
  '  if (totalPages !== undefined && pages < totalPages - firstPage + 1) return "the server announced " + totalPages + " page(s) but the walk ended after " + pages + ": the rows of the pages after it are missing";',
  '  // Rows from the first page on are known exactly at page 1, or with a fixed page size and full pages before.',
  '  const before = firstPage === 1 ? 0 : size === undefined ? undefined : (firstPage - 1) * size;',
  '  if (totalRows === undefined || before === undefined || before > totalRows) return undefined;',
  '  if (rows < totalRows - before) return "the server announced " + (totalRows - before) + " row(s) but the walk kept " + rows + ": " + (totalRows - before - rows) + " row(s) are missing";',
  '  if (rows > totalRows - before) return "the server announced " + (totalRows - before) + " row(s) but the walk kept " + rows + ": more than there are";',
  '  return undefined;',
  '}',
];

/** The same rule in Python. */
export const TOTALS_PY = [
  'def by_totals(facts, first_page, pages, rows):',
  '    if not facts or first_page is None:',
  '        return None',
  '    size = first_of(facts.get("X-Pagination-Per-Page"), facts.get("PageSize"))',
  '    total_rows = first_of(facts.get("X-Pagination-Total-Results"), facts.get("TotalOrders"))',
  '    total_pages = facts.get("X-Pagination-Total-Pages")',
  '    if total_pages is None and total_rows is not None and size:',
  '        total_pages = -(-total_rows // size)',
  '    if total_pages is not None and pages < total_pages - first_page + 1:',
  '        return f"the server announced {total_pages} page(s) but the walk ended after {pages}: the rows of the pages after it are missing"',
  '    # Rows from the first page on are known exactly at page 1, or with a fixed page size and full pages before.',
  '    before = 0 if first_page == 1 else None if size is None else (first_page - 1) * size',
  '    if total_rows is None or before is None or before > total_rows:',
  '        return None',
  '    if rows < total_rows - before:',
  '        return f"the server announced {total_rows - before} row(s) but the walk kept {rows}: {total_rows - before - rows} row(s) are missing"',
  '    if rows > total_rows - before:',
  '        return f"the server announced {total_rows - before} row(s) but the walk kept {rows}: more than there are"',
  '    return None',
];

/** The Python loop's one way to send (as typescriptSend). */
export function pythonSend(input: LoopInput): string[] {
  return [
    '# Header names that carry a credential: never sent on to another origin a redirect points at.',
    `CREDENTIAL_HEADERS = {${credentialHeaderNames(input).map(q).join(', ')}}`,
    `FOLLOW_REDIRECTS = ${input.followRedirects ? 'True' : 'False'}`,
    `MAX_REDIRECTS = ${MAX_REDIRECTS}`,
    '',
    '',
    'class _RedirectsByHand(urllib.request.HTTPRedirectHandler):',
    '    # urllib would follow a redirect with every header: send() follows it, credentials kept on their origin.',
    '    def redirect_request(self, req, fp, code, msg, headers, newurl):',
    '        return None',
    '',
    '',
    '_OPENER = urllib.request.build_opener(_RedirectsByHand)',
    '',
    '',
    'def _origin(url):',
    '    parts = urllib.parse.urlsplit(url)',
    '    return parts.scheme, parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)',
    '',
    '',
    'def _send_once(url, method, headers, data):',
    '    sent = urllib.request.Request(url, data=data, headers=headers, method=method)',
    '    try:',
    '        with _OPENER.open(sent) as response:',
    '            return response.status, response.reason, response.headers, response.read().decode("utf-8")',
    '    except urllib.error.HTTPError as error:',
    '        return error.code, error.reason, error.headers, error.read().decode("utf-8", "replace")',
    '',
    '',
    'def send(request):',
    '    url, method, headers = request["url"], request["method"], dict(request["headers"])',
    '    body = request.get("body")',
    '    data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")',
    '    hops = 0',
    '    while True:',
    '        status, reason, response_headers, text = _send_once(url, method, headers, data)',
    '        location = response_headers.get("Location")',
    '        if not FOLLOW_REDIRECTS or hops >= MAX_REDIRECTS or not 300 <= status <= 399 or location is None:',
    '            return status, reason, response_headers, text',
    '        hops += 1',
    '        next_url = urllib.parse.urljoin(url, location)',
    '        if _origin(next_url) != _origin(url):',
    '            headers = {name: value for name, value in headers.items() if name.lower() not in CREDENTIAL_HEADERS}',
    '        if status == 303 or (status in (301, 302) and method == "POST"):',
    '            method, data = "GET", None',
    '        url = next_url',
  ];
}
