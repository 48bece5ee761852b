// Issue 4 in the real editor: the password grant against the sandbox (token into SecretStorage, Bearer on a
// SurveyApi request, sign-out, a wrong password tried exactly once), Basic + X-API-Key with the 403s explained
// in words, and a pasted JWT's subject and expiry in the Environments tree. Read from the sandbox's request
// log, which shows credentials only as "Bearer [redacted]".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import type { SandboxDescriptor } from '../../../src/sandbox/descriptor';
import type { EnvironmentNode } from '../../../src/extension/environments/environmentsTree';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import {
  clearRequestLog, requestLog, signInToEngagement, tokenRequests, useSandboxEnvironment, writeWorkspaceFile,
} from './editorHelpers';

const SURVEY_REQUEST = (name: string): string => `### ${name}
# @name ${name}
POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json

{ "ErrorMessage": "", "OpCode": 1001, "QuestionLabel": "How likely are you to recommend us?", "QuestionSubType": "Score", "QuestionType": "Feedback", "ScoreRange": 1 }
`;

const FUNDRAISING_HEADERS = 'Authorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}';

describe('sign-in (issue 4)', () => {
  let api: ApiWorkbenchTestApi;
  let sandbox: SandboxDescriptor;

  before(async () => {
    api = await activatedApi();
    sandbox = requireSandbox();
    await useSandboxEnvironment(api);
  });

  describe('password grant (engagement)', () => {
    it('signs in with the stored password: the token lands in SecretStorage and the state is signed-in', async () => {
      await api.environments.credentials.signOut('engagement');
      await clearRequestLog(sandbox.engagement.baseUrl);
      await api.environments.secrets.set('engagement.password', sandbox.credentials.engagement.password);
      const session = await vscode.commands.executeCommand<{ userName: string } | undefined>('apiWorkbench.signIn', 'engagement');
      assert.ok(session, 'the Sign In command returned a session');
      assert.equal(session.userName, sandbox.credentials.engagement.username);
      assert.ok(await api.environments.secrets.get('engagement.access_token'), 'the access token is in SecretStorage');
      const state = await api.environments.credentials.state('engagement');
      assert.equal(state.state, 'signed-in');
      const tokens = tokenRequests(await requestLog(sandbox.engagement.baseUrl), sandbox);
      assert.equal(tokens.length, 1, 'one token request');
      assert.equal(tokens[0]?.form?.grant_type, 'password');
      assert.equal(tokens[0]?.form?.username, sandbox.credentials.engagement.username);
      assert.equal(tokens[0]?.status, 200);
    });

    it('sends a SurveyApi request with Authorization: Bearer (the sandbox log shows it redacted)', async () => {
      await clearRequestLog(sandbox.engagement.baseUrl);
      const uri = await writeWorkspaceFile('signin-survey.http', SURVEY_REQUEST('surveyWithToken'));
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.ok(response, 'a response');
      assert.equal(response.status, 200);
      const calls = (await requestLog(sandbox.engagement.baseUrl)).filter((r) => r.path === '/api/SurveyApi/AddFeedbackScoreQuestion');
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.headers.authorization, 'Bearer [redacted]');
      // What the panel shows of the request: the scheme, never the token.
      const shown = api.results.viewModel?.request.headers.find((h) => h.name.toLowerCase() === 'authorization');
      assert.equal(shown?.value, 'Bearer ***');
    });

    it('a 401 on a resource request is explained and sent once: no sign-in, no retry', async () => {
      // A token the sandbox never issued, while the stored session still looks valid.
      await api.environments.secrets.set('engagement.access_token', 'token-the-sandbox-never-issued');
      await clearRequestLog(sandbox.engagement.baseUrl);
      const uri = await writeWorkspaceFile('signin-survey-401.http', SURVEY_REQUEST('surveyWithStaleToken'));
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response?.status, 401);
      assert.match(api.results.viewModel?.auth?.title ?? '', /401 Unauthorized/);
      const log = await requestLog(sandbox.engagement.baseUrl);
      assert.equal(log.filter((r) => r.path === '/api/SurveyApi/AddFeedbackScoreQuestion').length, 1, 'sent once, not retried');
      assert.equal(tokenRequests(log, sandbox).length, 0, 'no sign-in by itself');
    });

    it('signs out: the token and the password leave SecretStorage', async () => {
      await vscode.commands.executeCommand('apiWorkbench.signOut', 'engagement');
      assert.equal(await api.environments.secrets.get('engagement.access_token'), undefined);
      assert.equal(await api.environments.secrets.get('engagement.password'), undefined);
      assert.equal((await api.environments.credentials.state('engagement')).state, 'signed-out');
    });

    it('a wrong password makes exactly one token request, and a request needing the token makes none', async () => {
      await clearRequestLog(sandbox.engagement.baseUrl);
      await api.environments.secrets.set('engagement.password', `wrong-${sandbox.credentials.engagement.password}`);
      const session = await vscode.commands.executeCommand('apiWorkbench.signIn', 'engagement');
      assert.equal(session, undefined, 'the sign-in failed');
      assert.equal(await api.environments.secrets.get('engagement.access_token'), undefined);
      assert.equal(await api.environments.secrets.get('engagement.password'), undefined, 'the refused password is dropped, so the next sign-in asks');
      const uri = await writeWorkspaceFile('signin-survey-refused.http', SURVEY_REQUEST('surveyAfterRefusal'));
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response, undefined, 'nothing is sent without a token');
      const log = await requestLog(sandbox.engagement.baseUrl);
      const tokens = tokenRequests(log, sandbox);
      assert.equal(tokens.length, 1, `exactly one token request (saw ${tokens.length})`);
      assert.equal(tokens[0]?.status, 400, 'invalid_grant');
      assert.equal(log.filter((r) => r.path.startsWith('/api/')).length, 0, 'no resource request went out');
    });

    after(async () => {
      // The suites after this one send engagement requests: leave it signed in with the right password.
      await signInToEngagement(api, sandbox);
    });
  });

  describe('Basic + X-API-Key (fundraising)', () => {
    const records = (): Array<{ env: string; permissionName: string; serviceKey: string }> => {
      const f = sandbox.credentials.fundraising;
      return [
        { env: 'sandbox-read-only', ...f.readOnly },
        { env: 'sandbox-ip-restricted', ...f.ipRestricted },
      ];
    };

    /** Rewrites the workspace's env file (which holds no secret) and reloads it. */
    async function editEnvFile(change: (file: Record<string, Record<string, unknown>>) => void): Promise<void> {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder);
      const envUri = vscode.Uri.joinPath(folder, 'http-client.env.json');
      const file = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(envUri))) as Record<string, Record<string, unknown>>;
      change(file);
      await vscode.workspace.fs.writeFile(envUri, new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`));
      await api.environments.load();
    }

    before(async () => {
      // Two more environments of the same env file, differing only in the (non-secret) permission name.
      await editEnvFile((file) => {
        for (const record of records()) file[record.env] = { ...file.sandbox, permission_name: record.permissionName };
      });
    });

    after(async () => {
      await useSandboxEnvironment(api);
      await editEnvFile((file) => {
        for (const record of records()) delete file[record.env];
      });
      await api.environments.secrets.set('fundraising.service_key', sandbox.credentials.fundraising.fullAccess.serviceKey);
    });

    it('with the service key stored, GET /v1/constituents answers 200', async () => {
      await useSandboxEnvironment(api);
      await api.environments.secrets.set('fundraising.service_key', sandbox.credentials.fundraising.fullAccess.serviceKey);
      await clearRequestLog(sandbox.fundraising.baseUrl);
      const uri = await writeWorkspaceFile('basic-constituents.http', `GET {{fundraising_base_url}}/v1/constituents?limit=5\n${FUNDRAISING_HEADERS}\n`);
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response?.status, 200);
      const call = (await requestLog(sandbox.fundraising.baseUrl)).find((r) => r.path === '/v1/constituents');
      assert.equal(call?.headers.authorization, 'Basic [redacted]');
      assert.equal(call?.headers['x-api-key'], '[redacted]');
      assert.equal(api.results.viewModel?.status, 200);
    });

    it('a POST with the read-only record gives 403, explained in words in the panel', async () => {
      const record = records()[0];
      assert.ok(record);
      await api.environments.use(record.env);
      await api.environments.secrets.set('fundraising.service_key', record.serviceKey);
      const uri = await writeWorkspaceFile('basic-readonly-post.http',
        `POST {{fundraising_base_url}}/v1/constituents\n${FUNDRAISING_HEADERS}\nContent-Type: application/json\n\n{ "type": "individual", "lastName": "Read-only" }\n`);
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response?.status, 403);
      const auth = api.results.viewModel?.auth;
      assert.ok(auth, 'the view model explains the 403');
      assert.match(auth.title, /403 Forbidden: the credentials are valid but lack the permission/);
      assert.match(auth.explanation, /permission name/);
    });

    it('the caller-IP-range 403 is told apart from a missing permission', async () => {
      const record = records()[1];
      assert.ok(record);
      await api.environments.use(record.env);
      await api.environments.secrets.set('fundraising.service_key', record.serviceKey);
      const uri = await writeWorkspaceFile('basic-ip-range.http', `GET {{fundraising_base_url}}/v1/constituents?limit=5\n${FUNDRAISING_HEADERS}\n`);
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response?.status, 403);
      assert.match(api.results.viewModel?.auth?.title ?? '', /outside the caller-IP range/);
    });
  });

  describe('JWT bearer (fundraising-user)', () => {
    it("the Environments tree shows a pasted token's subject and expiry", async () => {
      await useSandboxEnvironment(api);
      const jwt = sandbox.credentials.fundraising.jwt;
      await api.environments.secrets.set('fundraising-user.token', jwt.token);
      const tree = api.environmentsTree;
      const active = (await tree.getChildren()).find((n): n is Extract<EnvironmentNode, { kind: 'environment' }> => n.kind === 'environment' && n.active);
      assert.ok(active, 'the tree marks the active environment');
      const node = (await tree.getChildren(active)).find((n) => n.kind === 'auth' && n.entry.id === 'fundraising-user');
      assert.ok(node, 'fundraising-user is listed under the active environment');
      const item = await tree.getTreeItem(node);
      const description = String(item.description ?? '');
      assert.match(description, new RegExp(`subject ${jwt.user}`));
      assert.match(description, /expires \d{4}-\d\d-\d\dT/);
      assert.ok(!description.includes(jwt.token), 'the token itself is not shown');
    });

    it('a request with the pasted JWT is accepted', async () => {
      const uri = await writeWorkspaceFile('jwt-constituents.http',
        'GET {{fundraising_base_url}}/v1/constituents?limit=5\nAuthorization: Bearer {{$auth.token("fundraising-user")}}\nX-API-Key: {{tenant_code}}\n');
      const response = await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
      assert.equal(response?.status, 200);
    });
  });
});
