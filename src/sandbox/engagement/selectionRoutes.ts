// POST /api/Selection/GetSelectionResult_Ext (path inferred), export-ordinal style (seed 000 §4.2
// rule 6, §8). Body {OFFSET, TableName, FormatID?}.
// - A blank (absent, null or "") TableName creates an export table "SEL_<8 hex>" of `exportRows` rows
//   whose columns depend on FormatID (1 contact, the default; 2 transaction; 3 minimal).
// - OFFSET is a 1-based page ordinal: page N holds rows [pageRows*(N-1), pageRows*N), pageRows 100 000.
// - After a short or empty page is served the table is DROPPED: any later call naming it (a replay of
//   any page) answers HTTP 400 {Result: [], TableName, Error: "Invalid object name ..."}.
// Pages are streamed in chunks of rows, not built with one JSON.stringify.
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';
import { type EngagementData, SELECTION_FORMATS, rowChunks, selectionRowJson } from './data';

interface ExportTable { readonly key: number; readonly formatID: number; readonly rows: number }

export function addSelectionRoutes(router: Router, auth: EngagementAuth, data: EngagementData, exportRows: number, pageRows: number): void {
  const tables = new Map<string, ExportTable>();
  const dropped = new Set<string>();

  router.post('/api/Selection/GetSelectionResult_Ext', async (ctx: RequestContext) => {
    if (!auth.authorize(ctx, 'Selection/GetSelectionResult_Ext')) return;
    ctx.choice('inferred-paths');
    ctx.rule({ seed: '000', section: '4.2' }, 'OFFSET is a one-based ordinal of 100000-row pages');
    const body = await ctx.jsonBody();
    const b = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? body.value as Record<string, unknown> : {};
    const offset = b['OFFSET'];
    const given = b['TableName'];
    const tableName = typeof given === 'string' ? given.trim() : '';
    const fail = (message: string): void => ctx.json(400, { Result: [], TableName: tableName || null, Error: message });
    if (!Number.isInteger(offset) || (offset as number) < 1) {
      return fail('OFFSET must be a page ordinal of at least 1 (1 is the first page). Note the name is OFFSET, in capitals.');
    }
    const page = offset as number;
    let name = tableName;
    let table: ExportTable | undefined;
    if (name === '') {
      const formatID = b['FormatID'] ?? 1;
      if (typeof formatID !== 'number' || SELECTION_FORMATS[formatID] === undefined) {
        return fail(`Unknown FormatID ${JSON.stringify(formatID)}: the sandbox serves ${Object.keys(SELECTION_FORMATS).join(', ')}.`);
      }
      if (await ctx.pageFault('export-ordinal', page)) return;
      const suffix = randomBytes(4).toString('hex').toUpperCase();
      name = `SEL_${suffix}`;
      table = { key: parseInt(suffix, 16), formatID, rows: exportRows };
      tables.set(name, table);
    } else {
      table = tables.get(name);
      if (!table) {
        return fail(dropped.has(name)
          ? `Invalid object name '${name}'. The export table was dropped after its last (short or empty) page; a page cannot be fetched twice. Start a new export with a blank TableName.`
          : `Invalid object name '${name}'. Send a blank TableName to create an export.`);
      }
      if (await ctx.pageFault('export-ordinal', page)) return;
    }
    const from = Math.min(table.rows, pageRows * (page - 1));
    const to = Math.min(table.rows, from + pageRows);
    if (to - from < pageRows) {
      tables.delete(name);
      dropped.add(name);
    }
    const { key, formatID } = table;
    const tableLabel = name;
    await ctx.stream(200, (function* () {
      yield `{"TableName":"${tableLabel}","Result":[`;
      yield* rowChunks(from, to, (i) => selectionRowJson(data, key, formatID, i));
      yield ']}';
    })());
  });
}
