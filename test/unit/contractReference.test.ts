// The shipped contract reference (docs/contracts/) and the one home of citations (core/reference): every
// citation the product writes lands on a heading of the reference; labels name the contract section;
// links are command URIs (VS Code) or file URIs at the heading's line; untrusted arguments are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { citationLabel, citationsAsMarkdown, citationsAsText, commandLinker, fileLinker, findSection, firstCitation, parseCitation, CONTRACT_DOCUMENTS } from '../../src/core/reference';
import { headingAnchor, type ContractId } from '../../src/core/reference/citations';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { citationLinksFor, locateContractReference } from '../../src/server/reference';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs/contracts');
const read = (file: string): string => readFileSync(join(DOCS, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

/** Every citation written in src/: "seed 000 §4.2", seed000('2.1'), { seed: '001', section: '5.1' }. */
function writtenCitations(): Array<{ seed: ContractId; section: string; where: string }> {
  const found: Array<{ seed: ContractId; section: string; where: string }> = [];
  for (const file of sources(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/seed (00[012]) §(\d+(?:\.\d+)*)/g)) found.push({ seed: m[1] as ContractId, section: m[2]!, where: file });
    for (const m of text.matchAll(/seed(00[012])\('([^']+)'\)/g)) found.push({ seed: m[1] as ContractId, section: m[2]!, where: file });
    for (const m of text.matchAll(/seed: '(00[012])', section: '([^']+)'/g)) found.push({ seed: m[1] as ContractId, section: m[2]!, where: file });
  }
  return found;
}

void test('every citation in the product has its own heading in the shipped reference', () => {
  const citations = writtenCitations();
  assert.ok(citations.length > 50, `${citations.length} citations found`);
  const missing = citations.filter((c) => !findSection(read(CONTRACT_DOCUMENTS[c.seed].file), c.section)?.heading.match(new RegExp(`^(§${c.section.replace('.', '\\.')} |${c.section})`)));
  assert.deepEqual(missing.map((c) => `${c.seed} §${c.section} (${c.where})`), []);
});

void test('headings: unique anchors, made only of characters every Markdown preview keeps the same way', () => {
  for (const { file } of Object.values(CONTRACT_DOCUMENTS)) {
    const headings = read(file).split('\n').filter((l) => /^#{2,3} /.test(l)).map((l) => l.replace(/^#+ /, ''));
    assert.ok(headings.length > 0, file);
    for (const h of headings) assert.match(h, /^[§A-Za-z0-9 .,:+/()_-]+$/, `${file}: ${h}`);
    const anchors = headings.map(headingAnchor);
    assert.equal(new Set(anchors).size, anchors.length, `${file}: duplicate anchors`);
  }
  assert.equal(headingAnchor('§2.1 Survey question: fields every question request shares'), '21-survey-question-fields-every-question-request-shares');
  assert.equal(headingAnchor('§5.1 Basic + X-API-Key, for integrations'), '51-basic--x-api-key-for-integrations');
});

void test('a sub-section without its own heading lands on the enclosing one; an unknown one on nothing', () => {
  const text = read('engagement.md');
  assert.equal(findSection(text, '4.2.9')?.heading.startsWith('§4.2 '), true);
  assert.equal(findSection(text, '42'), undefined);
  assert.equal(findSection(read('booking.md'), 'Endpoints')?.anchor, 'endpoints-the-page-parameter-and-the-pagination-headers');
});

void test('labels name the contract and its section', () => {
  assert.equal(citationLabel({ seed: '000', section: '4.2', detail: 'rule 5' }), 'customer-engagement contract §4.2 rule 5');
  assert.equal(citationLabel({ seed: '001', section: '5.1' }), 'fundraising contract §5.1');
  assert.equal(citationLabel({ seed: '002', section: 'Endpoints' }), 'booking contract, Endpoints');
  assert.equal(citationsAsText('rejected (seed 000 §4.2 rule 2).'), 'rejected (customer-engagement contract §4.2 rule 2).');
  assert.deepEqual(firstCitation('see seed 001 §5.1 rule 3 and seed 000 §9'), { seed: '001', section: '5.1', detail: 'rule 3' });
  assert.equal(firstCitation('no citation here'), undefined);
});

void test('links: a command URI with the citation as its argument, or a file URI at the heading line', () => {
  const command = citationsAsMarkdown('Source: seed 000 §2.1', commandLinker('apiWorkbench.openContractReference'));
  const m = /^Source: \[customer-engagement contract §2\.1\]\(command:apiWorkbench\.openContractReference\?(.+)\)$/.exec(command);
  assert.ok(m, command);
  assert.deepEqual(JSON.parse(decodeURIComponent(m[1]!)), [{ seed: '000', section: '2.1' }]);
  const files = fileLinker('file:///ext/docs/contracts/', read);
  const href = files({ seed: '001', section: '5.1' }) ?? '';
  const line = Number(/^file:\/\/\/ext\/docs\/contracts\/fundraising\.md#L(\d+)$/.exec(href)?.[1]);
  assert.match(read('fundraising.md').split('\n')[line - 1] ?? '', /^### §5\.1 /);
  // A document that cannot be read gives no link: the label stays plain.
  assert.equal(citationsAsMarkdown('seed 002 Endpoints', fileLinker('file:///x', () => undefined)), 'booking contract, Endpoints');
});

void test('a citation handed in as a command argument is checked', () => {
  assert.deepEqual(parseCitation({ seed: '000', section: '7.3' }), { seed: '000', section: '7.3' });
  for (const bad of [undefined, null, 'seed 000', { seed: '003', section: '1' }, { seed: '000', section: '../../etc/passwd' }, { seed: '000', section: 7 }]) {
    assert.equal(parseCitation(bad), undefined, JSON.stringify(bad));
  }
});

void test('language service: hovers link citations, diagnostics name them and carry a code description', () => {
  const service = createHttpLanguageService();
  const located = locateContractReference(join(ROOT, 'src/server'));
  assert.equal(located, DOCS);
  service.setCitationLinks(citationLinksFor({
    initializationOptions: { contractReference: { command: 'apiWorkbench.openContractReference' } },
    capabilities: { textDocument: { publishDiagnostics: { codeDescriptionSupport: true } } },
  }, located));
  const text = 'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1&pageSize=0\n';
  const doc = new HttpDocument('file:///w/a.http', 1, text);
  const hover = service.doHover(doc, { line: 0, character: 40 });
  const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  assert.match(value, /\[customer-engagement contract §4\.2\]\(command:apiWorkbench\.openContractReference\?/);
  assert.doesNotMatch(value, /seed 00/);
  const range = service.doValidate(doc).find((d) => d.code === 'out-of-range');
  assert.ok(range, 'pageSize=0 is out of range');
  assert.match(range.message, /\(customer-engagement contract §8\)\.$/);
  assert.equal(range.codeDescription?.href, `${pathToFileURL(DOCS).href}/engagement.md#L${read('engagement.md').split('\n').findIndex((l) => l.startsWith('## §8 ')) + 1}`);
});

void test('a client without code-description support gets none; without the command, hovers link the file', () => {
  const links = citationLinksFor({ initializationOptions: { contractReference: { command: 'bad command!' } }, capabilities: {} }, DOCS);
  assert.equal(links.diagnostics, undefined);
  assert.match(links.markdown?.({ seed: '000', section: '7.3' }) ?? '', /^file:.*engagement\.md#L\d+$/);
  assert.equal(citationLinksFor({ capabilities: {} }, undefined).markdown, undefined);
});
