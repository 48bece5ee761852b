// Contract tests of the engagement paging operations (seed 000 §4.2 rules 1-7, §8), each style walked
// end to end with plain fetch and the row counts the sandbox declares.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, engagementGet, engagementPost, signIn, startSignedIn } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let token: string;

before(async () => ({ sandbox, d, token } = await startSignedIn({ orders: 1234, leads: 345, assets: 2300, facts: 12_000, bidwTransientEvery: 3, exportRows: 2500, selectionPageRows: 1000 })));
after(() => sandbox.close());

const orders = (query: string) => engagementGet(d, token, `/api/Transaction/GetOrdersByCustomer?${query}`);

void describe('Transaction/GetOrdersByCustomer (seed 000 §4.2 rules 2-3)', () => {
  void it('000 §4.2 rule 2: pageNumber defaults to 1 and pageSize to 50 (rule 000-4.2-orders-defaults)', async () => {
    const { status, body } = await orders(`ctcID=${d.samples.ctcID}`);
    assert.equal(status, 200);
    assert.equal(body['PageNumber'], 1);
    assert.equal(body['PageSize'], 50);
    assert.equal((body['Orders'] as unknown[]).length, 50);
    assert.equal(body['TotalOrders'], d.samples.ordersOfCtcID);
    assert.equal(body['Response'], true);
  });

  void it('000 §4.2 rule 2: pageSize above 500 is capped (PageSize reports the effective 500) (rule 000-4.2-orders-cap)', async () => {
    const { body } = await orders(`ctcID=${d.samples.ctcID}&pageSize=900`);
    assert.equal(body['PageSize'], 500);
    assert.equal((body['Orders'] as unknown[]).length, 500);
  });

  void it('000 §4.2 rules 2-3: a pageNumber or pageSize below 1 is HTTP 400 with the output model (rule 000-4.2-orders-below-one)', async () => {
    for (const query of ['pageNumber=0', 'pageSize=0', 'pageSize=-5', 'pageNumber=abc']) {
      const { status, body } = await orders(`ctcID=${d.samples.ctcID}&${query}`);
      assert.equal(status, 400, query);
      assert.deepEqual(Object.keys(body).sort(), ['Errors', 'Orders', 'PageNumber', 'PageSize', 'Response', 'TotalOrders']);
      assert.equal(body['Response'], false);
    }
  });

  void it('000 §4.2: ctcID is required (HTTP 400 with the output model) (rule 000-4.2-orders-customer-required)', async () => {
    const { status, body } = await orders('pageNumber=1');
    assert.equal(status, 400);
    assert.equal(body['Response'], false);
    assert.match(String((body['Errors'] as string[])[0]), /customer identifier/);
  });

  void it('000 §4.2 rule 1: paging names are case-sensitive (PageSize is not pageSize) (rule 000-4.2-names-case-sensitive)', async () => {
    const { body } = await orders(`ctcID=${d.samples.ctcID}&PageSize=200`);
    assert.equal(body['PageSize'], 50);
  });

  void it('000 §4.2 rule 3: a page out of range is HTTP 200 with Response=false (rule 000-4.2-orders-out-of-range)', async () => {
    const { status, body } = await orders(`ctcID=${d.samples.ctcID}&pageSize=500&pageNumber=4`);
    assert.equal(status, 200);
    assert.equal(body['Response'], false);
    assert.deepEqual(body['Orders'], []);
  });

  void it('000 §4.2 rule 3: a customer with no history is a successful empty list (rule 000-4.2-orders-no-history)', async () => {
    const { status, body } = await orders(`ctcID=${d.samples.ctcIDWithoutHistory}`);
    assert.equal(status, 200);
    assert.equal(body['Response'], true);
    assert.equal(body['TotalOrders'], 0);
    assert.deepEqual(body['Orders'], []);
  });

  void it('page-number walk: every order of the sample customer, once, in pages of 500', async () => {
    const seen = new Set<number>();
    let pages = 0;
    for (let page = 1; ; page++) {
      const { body } = await orders(`ctcID=${d.samples.ctcID}&pageSize=500&pageNumber=${page}`);
      if (body['Response'] === false) break;
      pages++;
      for (const order of body['Orders'] as Json[]) seen.add(order['OrderID'] as number);
      if (seen.size >= (body['TotalOrders'] as number)) break;
    }
    assert.equal(seen.size, d.samples.ordersOfCtcID);
    assert.equal(pages, Math.ceil(d.samples.ordersOfCtcID / 500));
  });
});

void describe('SalesLeads/GetLeads (seed 000 §4.2 rule 5)', () => {
  const leads = (Offset: unknown, PageSize: unknown = 100, CtcID = d.samples.ctcID) =>
    engagementPost(d, token, '/api/SalesLeads/GetLeads', { CtcID, BrandID: d.samples.brandID, PageSize, Offset });

  void it('000 §4.2 rule 5: Offset is forwarded as given (a row offset, not a page number) (rule 000-4.2-leads-offset)', async () => {
    const a = await leads(0, 10);
    const b = await leads(3, 10);
    assert.deepEqual((b.body['_Leads'] as Json[])[0], (a.body['_Leads'] as Json[])[3]);
  });

  void it('000 §4.2 rule 5: Remaining is not a reliable end signal (still above 0 after the last lead); rows carry TotalCounts (rule 000-4.2-leads-remaining)', async () => {
    const last = await leads(d.samples.leadsOfCtcID - 5, 100);
    const rows = last.body['_Leads'] as Json[];
    assert.equal(rows.length, 5);
    assert.equal(rows[0]?.['TotalCounts'], d.samples.leadsOfCtcID);
    assert.ok((last.body['Remaining'] as number) > 0, 'Remaining misleads');
    const past = await leads(d.samples.leadsOfCtcID, 100);
    assert.deepEqual(past.body['_Leads'], []);
    assert.ok((past.body['Remaining'] as number) > 0);
  });

  void it('000 §4.2: PageSize must be positive (400)', async () => {
    assert.equal((await leads(0, 0)).status, 400);
  });

  void it('offset-remaining walk: until an empty page, every lead once', async () => {
    const seen = new Set<number>();
    for (let offset = 0; ; ) {
      const rows = (await leads(offset, 100)).body['_Leads'] as Json[];
      if (rows.length === 0) break;
      rows.forEach((r) => seen.add(r['LeadID'] as number));
      offset += rows.length;
    }
    assert.equal(seen.size, d.samples.leadsOfCtcID);
  });
});

void describe('CustomerAsset/GetAssets (seed 000 §4.2 rule 4)', () => {
  const assets = (BatchID: unknown, BatchSize = 1000) => engagementPost(d, token, '/api/CustomerAsset/GetAssets', { BatchID, BatchSize });

  void it('000 §4.2 rule 4: continue with the returned BatchID; a made-up BatchID is an error (rule 000-4.2-batch-cursor)', async () => {
    const first = await assets(null);
    assert.equal(typeof first.body['BatchID'], 'string');
    const invented = await assets('2');
    assert.equal(invented.status, 400);
    assert.match(String(invented.body['Error']), /Invalid BatchID/);
  });

  void it('batch-cursor walk: BatchID echoed until Remaining is 0, every asset once', async () => {
    const seen = new Set<number>();
    let batchId: unknown = null;
    let batches = 0;
    for (;;) {
      const { status, body } = await assets(batchId);
      assert.equal(status, 200);
      batches++;
      (body['Assets'] as Json[]).forEach((a) => seen.add(a['AssetID'] as number));
      batchId = body['BatchID'];
      if (body['Remaining'] === 0) break;
    }
    assert.equal(seen.size, d.samples.assets);
    assert.equal(batches, Math.ceil(d.samples.assets / 1000));
  });
});

void describe('Selection/GetSelectionResult_Ext (seed 000 §4.2 rule 6)', () => {
  const select = (body: Json) => engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', body);

  void it('000 §4.2 rule 6: a blank TableName creates an export table; OFFSET is a 1-based ordinal; rows follow FormatID (rule 000-4.2-selection-ordinal)', async () => {
    const first = await select({ OFFSET: 1, TableName: '' });
    assert.match(String(first.body['TableName']), /^SEL_[0-9A-F]{8}$/);
    const rows = first.body['Result'] as Json[];
    assert.equal(rows.length, d.samples.selectionPageRows);
    assert.deepEqual(Object.keys(rows[0] ?? {}), ['CtcID', 'FirstName', 'LastName', 'Email', 'City', 'Country', 'OptInEmail', 'LastStayDate']);
    const minimal = await select({ OFFSET: 1, TableName: '', FormatID: 3 });
    assert.deepEqual(Object.keys((minimal.body['Result'] as Json[])[0] ?? {}), ['CtcID', 'Email']);
    const zero = await select({ OFFSET: 0, TableName: first.body['TableName'] });
    assert.equal(zero.status, 400);
  });

  void it('000 §4.2 rule 6: after the short last page the table is dropped, so any page of it cannot be replayed (rule 000-4.2-selection-dropped)', async () => {
    const first = await select({ OFFSET: 1, TableName: '' });
    const name: unknown = first.body['TableName'];
    const lastOrdinal = Math.ceil(d.samples.exportRows / d.samples.selectionPageRows);
    const last = await select({ OFFSET: lastOrdinal, TableName: name });
    assert.equal((last.body['Result'] as unknown[]).length, d.samples.exportRows % d.samples.selectionPageRows);
    for (const ordinal of [lastOrdinal, 1]) {
      const replay = await select({ OFFSET: ordinal, TableName: name });
      assert.equal(replay.status, 400);
      assert.match(String(replay.body['Error']), /dropped/);
    }
  });

  void it('export-ordinal walk: OFFSET 1, 2, ... with the returned TableName until a short page', async () => {
    let tableName = '';
    let rows = 0;
    let pages = 0;
    for (let offset = 1; ; offset++) {
      const { status, body } = await select({ OFFSET: offset, TableName: tableName });
      assert.equal(status, 200);
      tableName = body['TableName'] as string;
      const page = body['Result'] as unknown[];
      rows += page.length;
      pages++;
      if (page.length < d.samples.selectionPageRows) break;
    }
    assert.equal(rows, d.samples.exportRows);
    assert.equal(pages, Math.ceil(d.samples.exportRows / d.samples.selectionPageRows));
  });
});

void describe('BIDWHouse/GetFactTransactions (seed 000 §4.2 rule 7, §8)', () => {
  void it('000 §8: PageSize defaults to 5000 (rule 000-8-extraction-size)', async () => {
    const own = await signIn(d);
    let body: Json = {};
    for (let i = 0; i < 2; i++) ({ body } = await engagementPost(d, own, '/api/BIDWHouse/GetFactTransactions', {}));
    assert.equal((body['FactTransactions'] as unknown[]).length, 5000);
  });

  void it('000 §4.2 rule 7 / stateful-extraction walk: the same call again continues; a transient 500 is not the end and does not lose rows (rule 000-4.2-extraction-error)', async () => {
    const own = await signIn(d);
    const seen = new Set<number>();
    let transient = 0;
    for (let calls = 0; calls < 100; calls++) {
      const { status, body } = await engagementPost(d, own, '/api/BIDWHouse/GetFactTransactions', { PageSize: 1000 });
      if (status === 500) {
        transient++;
        continue;
      }
      const rows = body['FactTransactions'] as Json[];
      if (rows.length === 0) break;
      rows.forEach((r) => seen.add(r['FactID'] as number));
    }
    assert.ok(transient > 0, 'the sandbox injected transient errors');
    assert.equal(seen.size, d.samples.facts);
  });

  void it('000 §4.2 rule 7: the extraction position belongs to the token', async () => {
    const a = await signIn(d);
    const b = await signIn(d);
    const first = await engagementPost(d, a, '/api/BIDWHouse/GetFactTransactions', { PageSize: 10 });
    const other = await engagementPost(d, b, '/api/BIDWHouse/GetFactTransactions', { PageSize: 10 });
    assert.deepEqual(first.body, other.body);
  });
});
