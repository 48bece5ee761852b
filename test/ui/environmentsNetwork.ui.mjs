// The Environments view shows an environment's network in words: its proxy (from the env file), the
// company certificate authorities trusted on top of the system's, and each client certificate with the
// host it goes to and its state — valid, expired, passphrase missing, unreadable. The env file gets a
// "corporate" environment for the test (certificates made with openssl), restored afterwards.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openServicesView } from './lib/workbench.mjs';

export const name = "The Environments view shows an environment's proxy and certificate states in words";

let original;

function openssl(dir, args) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA, a valid client certificate, one that expired in 2024, and a PFX with a passphrase. */
function makeCertificates(dir) {
  mkdirSync(join(dir, 'db'), { recursive: true });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'company-ca.key', '-out', 'company-ca.pem', '-subj', '/CN=Corp Root CA', '-days', '30']);
  writeFileSync(join(dir, 'db/index.txt'), '');
  writeFileSync(join(dir, 'db/serial'), '01\n');
  writeFileSync(join(dir, 'ca.cnf'), '[ca]\ndefault_ca=c\n[c]\ndatabase=db/index.txt\nnew_certs_dir=db\nserial=db/serial\ndefault_md=sha256\npolicy=p\n[p]\ncommonName=supplied\n');
  for (const [file, dates] of [['client', ['-days', '20']], ['old-client', ['-startdate', '20240101000000Z', '-enddate', '20240201000000Z']]]) {
    openssl(dir, ['req', '-new', ...ec, '-keyout', `${file}.key`, '-out', `${file}.csr`, '-subj', `/CN=${file}`]);
    openssl(dir, ['ca', '-batch', '-config', 'ca.cnf', '-cert', 'company-ca.pem', '-keyfile', 'company-ca.key', '-in', `${file}.csr`, '-out', `${file}.pem`, ...dates]);
  }
  openssl(dir, ['pkcs12', '-export', '-in', 'client.pem', '-inkey', 'client.key', '-out', 'partner.pfx', '-passout', 'pass:not-stored']);
}

export async function run(page, ctx) {
  const envPath = join(ctx.workspace, 'http-client.env.json');
  original = readFileSync(envPath, 'utf8');
  const certs = join(ctx.workspace, 'certs');
  makeCertificates(certs);
  const file = JSON.parse(original);
  file.corporate = {
    api_url: 'https://api.corp.example',
    ApiWorkbench: { Proxy: 'http://proxy.corp.example:3128', 'No Proxy': 'localhost, 10.0.0.0/8', 'CA Bundle': 'certs/company-ca.pem' },
    SSLConfiguration: {
      'api.corp.example': { clientCertificate: 'certs/client.pem', clientCertificateKey: 'certs/client.key' },
      'legacy.corp.example': { clientCertificate: 'certs/old-client.pem', clientCertificateKey: 'certs/old-client.key' },
      'partner.corp.example:8443': { clientCertificate: { path: 'certs/partner.pfx', format: 'PFX' }, hasCertificatePassphrase: true },
      'gone.corp.example': { clientCertificate: 'certs/missing.pem' },
    },
  };
  writeFileSync(envPath, JSON.stringify(file, null, 2));

  await openServicesView(page);
  const container = page.locator('[id="workbench.view.extension.apiWorkbench"]');
  // Room for the Environments view: the other sections folded (unfolded again in cleanup).
  for (const title of OTHER_SECTIONS) await setSection(container, title, false);
  const tree = container.getByRole('tree', { name: 'Environments' });
  await tree.waitFor({ state: 'visible' });
  const sandbox = tree.getByRole('treeitem').filter({ hasText: /^\s*sandbox/ }).first();
  if ((await sandbox.getAttribute('aria-expanded')) === 'true') await sandbox.locator('.monaco-tl-twistie').click();
  const corporate = tree.getByRole('treeitem').filter({ hasText: /^\s*corporate/ }).first();
  await corporate.waitFor();
  // The twistie expands without switching to the environment (a click on the row switches).
  await corporate.locator('.monaco-tl-twistie').click();
  await corporate.and(page.locator('[aria-expanded="true"]')).waitFor();
  await dragSideBar(page, 560);
  const rowWith = (text) => tree.getByRole('treeitem').filter({ hasText: text }).first();
  await rowWith(/Proxy\s*http:\/\/proxy\.corp\.example:3128 \(env file, environment 'corporate'\); not for localhost,10\.0\.0\.0\/8/).waitFor();
  await rowWith(/Certificate authorities\s*the system's, and certs\/company-ca\.pem: 1 authority/).waitFor();
  await rowWith(/Client certificate certs\/client\.pem\s*for api\.corp\.example · valid until \d{4}-\d\d-\d\d/).waitFor();
  await rowWith(/Client certificate certs\/old-client\.pem\s*for legacy\.corp\.example · expired on 2024-02-01/).waitFor();
  await rowWith(/Client certificate certs\/partner\.pfx\s*for partner\.corp\.example:8443 · passphrase missing/).waitFor();
  await rowWith(/Client certificate certs\/missing\.pem\s*for gone\.corp\.example · unreadable: no such file/).waitFor();
  await ctx.screenshot('environments-network');
}

export async function cleanup(page, ctx) {
  if (original !== undefined) writeFileSync(join(ctx.workspace, 'http-client.env.json'), original);
  rmSync(join(ctx.workspace, 'certs'), { recursive: true, force: true });
  await page.keyboard.press('Escape');
  if (widened) await dragSideBar(page, -widened);
  const container = page.locator('[id="workbench.view.extension.apiWorkbench"]');
  for (const title of OTHER_SECTIONS) await setSection(container, title, true);
  const sandbox = container.getByRole('tree', { name: 'Environments' }).getByRole('treeitem').filter({ hasText: /^\s*sandbox/ }).first();
  if ((await sandbox.getAttribute('aria-expanded')) === 'false') await sandbox.locator('.monaco-tl-twistie').click();
}

const OTHER_SECTIONS = ['Services', 'Requests', 'History'];
let widened = 0;

/** Folds or unfolds a section of the API Workbench side bar by its header. */
async function setSection(container, title, expanded) {
  const header = container.locator('.pane-header').filter({ hasText: new RegExp(`^\\s*${title}`) }).first();
  if (!(await header.count())) return;
  if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
  await header.and(container.page().locator(`[aria-expanded="${expanded}"]`)).waitFor();
}

/** Moves the side bar's right edge by `by` pixels (its sash), so the rows' descriptions show whole. */
async function dragSideBar(page, by) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 1 + by, y, { steps: 8 });
  await page.mouse.up();
  const after = await page.locator('.part.sidebar').boundingBox();
  widened += after ? after.width - box.width : 0;
}
