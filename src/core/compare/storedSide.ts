// A History entry's stored response as one side of a comparison: no network. Its body is read by the
// steps a live side's first page goes through, asked of the same rules: the rows rule of the request's
// paging plan (pagingPlanFor from its `# @` directives and catalog operation, then paging/rows.ts),
// business errors (detectBusinessErrors) and contract drift (contractFindings) of that operation,
// summed up by the side exchange's own summary (summaryOf). Its rows go to an NDJSON file for
// compareSides. What History stores was redacted before it was written (core/history/store.ts), so
// nothing read here holds a secret. A body History cut, or one that is not JSON, has no rows: said in
// the side's problem, never compared as if empty. Its rows keep each number's text as the server wrote
// it (json/numberText.ts: 12345678901234567890 is not 12345678901234567000); the rules are asked of the
// body as JSON.parse reads it, as a live side's are.
import type { Catalog } from '../catalog';
import { detectBusinessErrors } from '../catalog';
import { contractFindings } from '../contract/step';
import { openNdjsonSink } from '../export/ndjsonSink';
import type { RowSink } from '../export/sink';
import type { StoredExchange } from '../history/store';
import { parseHttpFile } from '../httpfile';
import { pathOf } from '../http/url';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { holdsLossyNumber, keepsNumberText, parseKeepingNumbers } from '../json/numberText';
import { readPath, rowsRule } from '../paging/rows';
import { pagingPlanFor } from '../run/pagingPlan';
import type { ComparedSide } from './compareSides';
import { summaryOf } from './sideExchange';

/** The `# @key value` directives of the stored request block (those still holding a `{{variable}}` are left out: nothing resolves them here). */
function directivesOf(source: string | undefined): Record<string, string> {
  const block = source ? parseHttpFile(source).blocks.find((b) => b.request) : undefined;
  return Object.fromEntries((block?.directives ?? []).filter((d) => !d.value.includes('{{')).map((d) => [d.key, d.value]));
}

type Parsed = { readonly body: unknown } | { readonly problem: string };

function parsedBody(stored: StoredExchange): Parsed {
  const text = stored.response?.bodyText ?? '';
  if (stored.bodyRefused) return { problem: `${stored.bodyRefused}; its rows were not compared` };
  const note = stored.entry.response?.bodyNote;
  if (note) return { problem: `the stored body was cut (${note}); its rows were not compared` };
  if (text.trim() === '') return { body: undefined };
  const tooDeep = jsonTextTooDeep(text);
  if (tooDeep) return { problem: `the stored body ${tooDeepText(tooDeep.limit)}; its rows were not read` };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { problem: 'the stored body is not JSON; it has no rows to compare' };
  }
}

/** The rows at `path` with their numbers' text kept (parseKeepingNumbers), when JSON.parse changed one; else `rows`. */
function rowsAsWritten(text: string, path: string, rows: readonly unknown[]): readonly unknown[] {
  if (!holdsLossyNumber(text)) return rows;
  const body = parseKeepingNumbers(text);
  const kept = readPath(body, path);
  if (!Array.isArray(kept)) return rows;
  // Each row is written as its own line: it says it holds a NumberText, as the body does.
  for (const row of kept) keepsNumberText(body, row);
  return kept;
}

/**
 * The stored exchange as a side; its rows are written to `rowsFile` (through `wrap`, the caller's
 * redacting sink, when given).
 */
export async function storedSide(stored: StoredExchange, catalog: Catalog, rowsFile: string, wrap: (sink: RowSink) => RowSink = (sink) => sink): Promise<ComparedSide> {
  const { entry, response } = stored;
  const redact = (text: string): string => text;
  if (!response) {
    return { summary: summaryOf({ problem: entry.fault ?? 'no response was stored', findings: [] }, { redact, allPages: false }) };
  }
  const request = { method: entry.request.method, url: entry.request.url };
  const operation = catalog.match(request.method, pathOf(request.url));
  const parsed = parsedBody(stored);
  const body = 'body' in parsed ? parsed.body : undefined;
  const lookup = pagingPlanFor(request, directivesOf(entry.source), catalog, operation);
  // No plan: the style is the response's own; the options `# @paging auto …` gives it still say where its rows are.
  const plan = lookup.ok && lookup.plan ? lookup.plan : { style: 'none' as const, options: (lookup.ok ? lookup.detectOptions : undefined) ?? {} };
  const found = body === undefined ? undefined : rowsRule(plan.style, plan.options).find(body);
  const rows = found?.ok ? rowsAsWritten(response.bodyText, found.path, found.rows) : undefined;
  const business = body === undefined ? undefined : detectBusinessErrors(body, operation?.errorCatalogue);
  const findings = contractFindings(operation, { status: response.status, headers: response.headers, body }, 'warning');
  const summary = summaryOf({
    response, findings,
    ...(business ? { business } : {}),
    ...(found?.ok ? { rows: { path: found.path, items: [], count: found.rows.length } } : {}),
  }, { redact, allPages: false });
  if ('problem' in parsed) return { summary: { ...summary, problem: parsed.problem } };
  // A body with no rows where the rule looks compares as an empty page, as a live side's does.
  const sink = wrap(await openNdjsonSink(rowsFile));
  try {
    if (rows?.length) await sink.writePage(rows);
  } finally {
    await sink.close();
  }
  return { summary, rowsFile, ...(operation?.recordKey ? { recordKey: operation.recordKey.field } : {}) };
}
