// `apiwb import-openapi` in-process: from the live sandbox URL and from a file, the overlay file it
// writes reads back and merges like the original import; usage and document errors exit 2 naming the input.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImportOpenApi } from '../../src/cli/importCommand';
import { bookingService } from '../../src/core/catalog/booking';
import { engagementService } from '../../src/core/catalog/engagement';
import { fundraisingService } from '../../src/core/catalog/fundraising';
import { createCatalog } from '../../src/core/catalog';
import { requestBodyJsonSchema, schemaAtPath } from '../../src/core/catalog/jsonSchema';
import { readOverlayFile, withOverlay, OpenApiImportError } from '../../src/core/openapi';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'openapi');

function capture(): { io: { stdout: (t: string) => void; stderr: (t: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: (t) => { out += t; }, stderr: (t) => { err += t; } }, out: () => out, err: () => err };
}

void describe('apiwb import-openapi', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(join(tmpdir(), 'apiwb-openapi-'));
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  void it('imports the sandbox document by URL and writes an overlay file that merges back', async () => {
    const url = `${sandbox.descriptor.fundraising.baseUrl}/openapi/v1.json`;
    const file = join(dir, 'overlay.json');
    const c = capture();
    assert.equal(await runImportOpenApi([url, '--out', file], c.io), 0, c.err());
    assert.match(c.out(), /^10 operations read from “Fundraising service \(API Workbench sandbox\)” \(OpenAPI 3\.0\.3\): 0 added \(marked "imported" in the Services tree\), 10 enriched \(contract operations of the same method and path, marked "enriched by import"\), 0 unchanged\.\nOverlay written to /);
    const overlay = readOverlayFile(readFileSync(file, 'utf8'), file);
    assert.equal(overlay.source, url);
    const catalog = createCatalog(withOverlay([engagementService, fundraisingService, bookingService], overlay));
    assert.equal(schemaAtPath(requestBodyJsonSchema(catalog.match('POST', '/v1/lists')!)!, ['name'])?.type, 'string');
  });

  void it('imports a file and lists what it adds, warnings on stderr', async () => {
    const c = capture();
    assert.equal(await runImportOpenApi([join(FIXTURES, 'campaigns-3.1.json')], c.io), 0);
    assert.match(c.out(), /4 operations read from .*: 4 added \(marked "imported" in the Services tree\), 0 enriched .*, 0 unchanged\.\n {2}\+ fundraising\/Campaigns\/ListCampaigns\n/);
    assert.match(c.err(), /^warning: CampaignInput\.external: /m);
  });

  void it('exits 2 on usage errors and on documents that cannot be imported, naming them', async () => {
    const usage = capture();
    assert.equal(await runImportOpenApi([], usage.io), 2);
    assert.match(usage.err(), /give exactly one URL or file/);
    const service = capture();
    assert.equal(await runImportOpenApi(['x.json', '--service', 'crm'], service.io), 2);
    assert.match(service.err(), /--service must be one of fundraising, engagement, booking/);
    const missing = capture();
    assert.equal(await runImportOpenApi([join(dir, 'nope.json')], missing.io), 2);
    assert.match(missing.err(), /nope\.json: no such file\./);
    const swagger = capture();
    assert.equal(await runImportOpenApi([join(FIXTURES, 'swagger-2.json')], swagger.io), 2);
    assert.match(swagger.err(), /swagger-2\.json: a Swagger 2\.0 document/);
    const html = capture();
    assert.equal(await runImportOpenApi([`${sandbox.descriptor.fundraising.baseUrl}/swagger/index.html`], html.io), 2);
    assert.match(html.err(), /swagger\/index\.html: the server answered an HTML page/);
    const help = capture();
    assert.equal(await runImportOpenApi(['--help'], help.io), 0);
    assert.match(help.out(), /^Usage: apiwb import-openapi <url\|file>/);
  });

  void it('rejects a damaged overlay file naming it', () => {
    assert.throws(() => readOverlayFile('{"apiWorkbenchOverlay":1,"source":"x","service":"fundraising","operations":[{"id":1}]}', 'o.json'),
      (e: unknown) => e instanceof OpenApiImportError && /^o\.json: the overlay file is damaged/.test(e.message));
    assert.throws(() => readOverlayFile('[]', 'p.json'), /p\.json: not an API Workbench overlay file/);
  });
});
