// `apiwb run --check-contract` (issue 13) against the sandbox told to drift (X-Sandbox-Fault: drift):
// each finding is printed with its kind in words, JSON path and contract section, and drift exits 1.
// The same requests without the fault show no drift and exit 0.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertNoSecret, runCli, type CliResult } from './cliProcess';
import { buildCli, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';

let cli = '';
let ws: SandboxWorkspace;

const choiceBody = JSON.stringify({
  ErrorMessage: 'Please choose one option', IsMandatory: true, OpCode: 1001, PageID: 1, QuestionLabel: 'Which?',
  QuestionPosition: 1, QuestionSubType: 'Single', QuestionType: 'Choice', Choices: [{ ID: 1, Label: 'A', Order: 1 }],
});

function requests(fault: string): string {
  const header = fault ? `X-Sandbox-Fault: ${fault}\n` : '';
  return `### 
# @name addChoice
POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json
${header}
${choiceBody}

###
# @name orders
GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=20
Authorization: Bearer {{$auth.token("engagement")}}
${header}
###
# @name bookings
GET {{booking_base_url}}/bookings
${header}`;
}

const apiwb = (file: string, extra: readonly string[] = []): Promise<CliResult> =>
  runCli(cli, ['run', file, '--env', 'sandbox', '--env-file', ws.envFile, '--check-contract', ...extra], ws.secrets);

void describe('apiwb run --check-contract', () => {
  before(async () => {
    ws = await openSandboxWorkspace();
    cli = await buildCli(ws.dir);
    writeFileSync(join(ws.dir, 'drifting.http'), requests('drift'));
    writeFileSync(join(ws.dir, 'faithful.http'), requests(''));
    writeFileSync(join(ws.dir, 'unknown-code.http'), `###\n# @name missingFields\nPOST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\nAuthorization: Bearer {{$auth.token("engagement")}}\nContent-Type: application/json\nX-Sandbox-Fault: drift\n\n{}\n`);
  });
  after(async () => { await ws.close(); });

  void it('the sandbox as the contract describes it: no drift, exit 0', async () => {
    const result = await apiwb(join(ws.dir, 'faithful.http'));
    assert.equal(result.code, 0, `exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.stdout.split('\n').filter((l) => l.trim() === 'contract: no drift').length, 3, result.stdout);
    assertNoSecret(ws.secretValues, result);
  });

  void it('a drifting sandbox: every finding printed with its path and section, exit 1', async () => {
    const result = await apiwb(join(ws.dir, 'drifting.http'));
    assert.equal(result.code, 1, result.stdout);
    const out = result.stdout;
    // PostOutput (seed 000 §2.4): ID left out, ResponseStatus turned into a string, a field added.
    assert.match(out, /✗ addChoice .*\n {4}contract drift: 3 findings\n/);
    assert.match(out, /drift: \$\.ID: 'ID' is documented as always present but the response lacks it\. \(seed 000 §2\.4\)/);
    assert.match(out, /drift: \$\.ResponseStatus: documented as boolean, received string\. \(seed 000 §2\.4\)/);
    assert.match(out, /drift: \$\.SandboxDrift: 'SandboxDrift' is not a field the contract documents here\. \(seed 000 §2\.4\)/);
    // GetOrdersByCustomer (§4.2): PageNumber left out; Response (boolean) turned into a string.
    assert.match(out, /drift: \$\.PageNumber: the contract names the paging field PageNumber; the response lacks it\. \(seed 000 §4\.2\)/);
    assert.match(out, /drift: \$\.Response: documented as boolean, received string\. \(seed 000 §4\.2\)/);
    // An extra field on an open object is not drift: the order's field list is not shown.
    assert.doesNotMatch(out, /\$\.Orders\[/);
    // Booking (seed 002): a paging header missing.
    assert.match(out, /drift: header:X-Pagination-Total-Pages: the contract names the paging header X-Pagination-Total-Pages; the response lacks it\. \(seed 002 §Endpoints\)/);
    assert.match(out, /3 requests, 3 failed/);
    assertNoSecret(ws.secretValues, result);
  });

  void it('a code outside the SurveyApi catalogue is drift', async () => {
    const result = await apiwb(join(ws.dir, 'unknown-code.http'));
    assert.equal(result.code, 1);
    assert.match(result.stdout, /drift: \$\.Errors\[0\]\.ErrorCode: error code 999 is not in the SurveyApi catalogue\. \(SurveyApi catalogue, seed 000 §7\.3\)/);
  });

  void it('--help names the option', async () => {
    const result = await runCli(cli, ['run', '--help']);
    assert.match(result.stdout, /--check-contract/);
  });
});
