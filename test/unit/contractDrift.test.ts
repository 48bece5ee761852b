// Contract drift (issue 13): one test per finding kind, measured against the real catalog, and the
// "not shown" rule: what the contract does not state never drifts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog, type Operation } from '../../src/core/catalog';
import { contractViewOfFindings } from '../../src/core/contract';
import { ARRAY_ITEMS_CHECKED, checkContract, type DriftKind } from '../../src/core/contract/drift';
import { isNotHeld } from '../../src/core/paging/notHeld';
import { placeholderRows, rowsSummary } from '../../src/core/paging/rows';

const catalog = createCatalog();
const op = (id: string): Operation => {
  const found = catalog.operationById(id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const addChoice = op('engagement/SurveyApi/AddChoiceQuestion');
const orders = op('engagement/Transaction/GetOrdersByCustomer');
const bookings = op('booking/Bookings/ListBookings');
const constituent = op('fundraising/Constituents/GetConstituent');
const leads = op('engagement/SalesLeads/GetLeads');
const kinds = (report: { findings: readonly { kind: DriftKind }[] }): DriftKind[] => report.findings.map((f) => f.kind);

const ordersPage = { PageNumber: 1, PageSize: 50, TotalOrders: 120, Orders: [{ OrderID: 1 }], Response: true, Errors: [] };
const paginationHeaders = { 'x-pagination-page': '1', 'X-Pagination-Per-Page': '10', 'x-pagination-total-pages': '3', 'x-pagination-total-results': '30' };

void describe('contract drift: a response as documented has no finding', () => {
  void it('PostOutput, a page of orders, a booking page and a constituent with extra fields', () => {
    assert.deepEqual(checkContract(addChoice, { status: 200, headers: {}, body: { ID: 7, Errors: [], ResponseStatus: true } }).findings, []);
    assert.deepEqual(checkContract(orders, { status: 200, headers: {}, body: ordersPage }).findings, []);
    assert.deepEqual(checkContract(bookings, { status: 200, headers: paginationHeaders, body: [{ id: 1 }] }).findings, []);
    assert.deepEqual(checkContract(constituent, { status: 200, headers: {}, body: { constituentNumber: 'C1', nickname: 'x' } }).findings, []);
  });
});

void describe('contract drift: one finding per kind, with its path and section', () => {
  void it('undocumented-field: a field PostOutput does not list', () => {
    const report = checkContract(addChoice, { status: 200, headers: {}, body: { ID: 7, Errors: [], ResponseStatus: true, Extra: 1 } });
    assert.deepEqual(report.findings, [
      { kind: 'undocumented-field', path: '$.Extra', message: "'Extra' is not a field the contract documents here.", section: 'seed 000 §2.4' },
    ]);
  });

  void it('missing-field: a field PostOutput always carries', () => {
    const report = checkContract(addChoice, { status: 200, headers: {}, body: { Errors: [], ResponseStatus: true } });
    assert.deepEqual(kinds(report), ['missing-field']);
    assert.equal(report.findings[0]?.path, '$.ID');
    assert.equal(report.findings[0]?.section, 'seed 000 §2.4');
  });

  void it('type-mismatch: at the top and inside an array item, nulls included', () => {
    const report = checkContract(addChoice, {
      status: 200,
      headers: {},
      body: { ID: '7', Errors: [{ ErrorCode: 1, ErrorDescription: null }], ResponseStatus: false },
    });
    assert.deepEqual(report.findings.map((f) => [f.kind, f.path, f.message]), [
      ['type-mismatch', '$.ID', 'documented as integer, received string.'],
      ['type-mismatch', '$.Errors[0].ErrorDescription', 'documented as string, received null.'],
    ]);
  });

  void it('unknown-error-code: a code outside the family catalogue, cited to §7.3', () => {
    const report = checkContract(addChoice, {
      status: 200,
      headers: {},
      body: { ID: 0, Errors: [{ ErrorCode: 1, ErrorDescription: 'Missing mandatory fields' }, { ErrorCode: 999, ErrorDescription: 'x' }], ResponseStatus: false },
    });
    assert.deepEqual(report.findings, [
      { kind: 'unknown-error-code', path: '$.Errors[1].ErrorCode', message: 'error code 999 is not in the SurveyApi catalogue.', section: 'SurveyApi catalogue, seed 000 §7.3' },
    ]);
  });

  void it('missing-paging-header: the booking headers of seed 002', () => {
    const { 'x-pagination-total-pages': _dropped, ...rest } = paginationHeaders;
    const report = checkContract(bookings, { status: 200, headers: rest, body: [] });
    assert.deepEqual(report.findings.map((f) => [f.kind, f.path, f.section]), [['missing-paging-header', 'header:X-Pagination-Total-Pages', 'seed 002 §Endpoints']]);
  });

  void it('missing-paging-field: TotalOrders of a page of orders, Remaining of GetLeads', () => {
    const { TotalOrders: _t, ...withoutTotal } = ordersPage;
    assert.deepEqual(checkContract(orders, { status: 200, headers: {}, body: withoutTotal }).findings.map((f) => [f.kind, f.path, f.section]), [
      ['missing-paging-field', '$.TotalOrders', 'seed 000 §4.2'],
    ]);
    assert.deepEqual(kinds(checkContract(leads, { status: 200, headers: {}, body: { _Leads: [] } })), ['missing-paging-field']);
  });
});

void describe('contract drift: what the contract does not show never drifts', () => {
  void it('a field whose type is not shown takes any type; an open object takes any field', () => {
    const body = { ...ordersPage, PageNumber: 'one', TotalOrders: { n: 1 }, Anything: true };
    assert.deepEqual(checkContract(orders, { status: 200, headers: {}, body }).findings, []);
  });

  void it('a body the contract does not describe (fundraising lists, a 500) is not compared, and the report says so', () => {
    const list = checkContract(op('fundraising/Constituents/ListConstituents'), { status: 200, headers: {}, body: { value: [1], odd: 'x' } });
    assert.deepEqual(list.findings, []);
    assert.match(list.notChecked.join('\n'), /does not show the layout of the response body of ListConstituents/);
    const failed = checkContract(addChoice, { status: 500, headers: {}, body: { Message: 'x', ErrorCode: 999 } });
    assert.deepEqual(failed.findings, []);
    assert.match(failed.notChecked.join('\n'), /500 response is not described/);
  });

  void it('error codes of a family without a catalogue are not judged', () => {
    const withoutCatalogue = op('engagement/SalesLeads/GetLeads');
    const report = checkContract(withoutCatalogue, { status: 200, headers: {}, body: { _Leads: [], Remaining: 0, Errors: [{ ErrorCode: 999 }], Response: false } });
    assert.deepEqual(report.findings, []);
    assert.match(report.notChecked.join('\n'), /publishes no catalogue/);
  });

  void it('a page that reports a business failure is not held to the paging fields', () => {
    const outOfRange = { PageNumber: 9, PageSize: 50, Orders: [], Response: false, Errors: ['Page 9 is out of range'] };
    assert.deepEqual(checkContract(orders, { status: 200, headers: {}, body: outOfRange }).findings, []);
  });

  void it('a long array is sampled, and the report says how much was compared', () => {
    const rows = Array.from({ length: ARRAY_ITEMS_CHECKED + 50 }, (_, i) => ({ ErrorCode: 1, ErrorDescription: i < ARRAY_ITEMS_CHECKED ? 'ok' : 5 }));
    const report = checkContract(addChoice, { status: 200, headers: {}, body: { ID: 1, Errors: rows, ResponseStatus: false } });
    assert.deepEqual(report.findings, []);
    assert.match(report.notChecked.join('\n'), new RegExp(`first ${ARRAY_ITEMS_CHECKED} of ${ARRAY_ITEMS_CHECKED + 50} items`));
  });
});

void describe('contract drift: rows a walk streamed without holding them (notHeld.ts)', () => {
  // A documented layout: an id, a list of objects with a name, and an object with a name and a list of strings.
  const documented: Operation = {
    ...constituent, origin: 'import', responseBody: undefined,
    responseBodyJsonSchema: {
      type: 'object', required: ['id'],
      properties: {
        id: { type: 'string' },
        value: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        campaign: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, lists: { type: 'array', items: { type: 'string' } } } },
      },
    },
    imported: { source: 'campaigns.json', contributed: ['operation'] },
  };
  const findingsOf = (body: unknown): string[][] => checkContract(documented, { status: 200, headers: {}, body }).findings.map((f) => [f.kind, f.path]);
  const notCheckedOf = (body: unknown): string => checkContract(documented, { status: 200, headers: {}, body }).notChecked.join('\n');

  void it("a page's stand-in for rows not held is never drift, its sampled items included, and is said as not checked", () => {
    // What the anywhere walk leaves for 120 rows: a sample of two objects and a non-object, then holes.
    const rows = placeholderRows([], 120, 3, 2);
    assert.ok(isNotHeld(rows));
    assert.deepEqual(findingsOf({ id: 'c1', value: rows }), []);
    assert.match(notCheckedOf({ id: 'c1', value: rows }), /\$\.value: 120 items went to the output as they arrived and were not held/);
  });

  void it('rows received are checked, however empty: an empty object and a number drift', () => {
    assert.equal(isNotHeld([{}, {}, 0]), false);
    assert.deepEqual(findingsOf({ id: 'c1', value: [{}, { name: 'x' }, 0] }), [['missing-field', '$.value[0].name'], ['type-mismatch', '$.value[2]']]);
    assert.doesNotMatch(notCheckedOf({ id: 'c1', value: [{}] }), /not held/);
  });

  void it("a field too large to keep, read as the rule's summary of it, is not compared either", () => {
    // The summary holds only the arrays the rule reads, as stand-ins: no name, numbers for the strings.
    const summary = rowsSummary({ name: 'spring', lists: ['a', 'b'] });
    assert.ok(isNotHeld(summary));
    assert.equal(JSON.stringify(summary), '{"lists":[0,0]}', 'the mark is never serialised');
    assert.deepEqual(findingsOf({ id: 'c1', campaign: summary }), []);
    assert.match(notCheckedOf({ id: 'c1', campaign: summary }), /\$\.campaign: too large to keep/);
    // The same field received as it is: its missing name and its numbers are drift.
    assert.deepEqual(findingsOf({ id: 'c1', campaign: { lists: [0, 0] } }), [['missing-field', '$.campaign.name'], ['type-mismatch', '$.campaign.lists[0]'], ['type-mismatch', '$.campaign.lists[1]']]);
  });
});

void describe('contract drift: an imported OpenAPI operation', () => {
  const imported: Operation = {
    ...constituent,
    id: 'fundraising/Campaigns/GetCampaign',
    name: 'GetCampaign',
    origin: 'import',
    responseBody: undefined,
    responseBodyJsonSchema: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string' }, goal: { type: 'number', nullable: true }, tags: { type: 'array', items: { type: 'string' } } },
    },
    imported: { source: 'campaigns.json', operationId: 'getCampaign', contributed: ['operation'] },
  };

  void it('a documented field list with no additionalProperties is closed; findings cite the document', () => {
    const report = checkContract(imported, { status: 200, headers: {}, body: { id: 3, tags: ['a', 2], extra: 1 } });
    assert.deepEqual(report.findings.map((f) => [f.kind, f.path]), [
      ['type-mismatch', '$.id'],
      ['type-mismatch', '$.tags[1]'],
      ['undocumented-field', '$.extra'],
    ]);
    assert.ok(report.findings.every((f) => f.section === 'imported campaigns.json (getCampaign)'));
  });
});

void describe('contract drift as the exchange step and as the panel section', () => {
  void it('contractViewOfFindings keeps drift findings and "not checked" notes apart; no operation, no section', () => {
    const findings = [
      { step: 'contract', severity: 'warning' as const, message: '$.ID: x (seed 000 §2.4)', detail: { kind: 'missing-field', path: '$.ID', message: 'x', section: 'seed 000 §2.4' } },
      { step: 'contract', severity: 'note' as const, message: 'not checked: The body of a 500 response is not described', detail: { kind: 'not-checked' } },
      { step: 'assertions', severity: 'failure' as const, message: 'status 200 expected' },
    ];
    assert.deepEqual(contractViewOfFindings('engagement/SurveyApi/AddChoiceQuestion', findings), {
      operation: 'engagement/SurveyApi/AddChoiceQuestion',
      findings: [{ kind: 'missing-field', path: '$.ID', message: 'x', section: 'seed 000 §2.4' }],
      notChecked: ['The body of a 500 response is not described'],
    });
    assert.equal(contractViewOfFindings(undefined, findings), undefined);
    assert.equal(contractViewOfFindings('x', findings.slice(2)), undefined, 'the step did not run');
  });
});
