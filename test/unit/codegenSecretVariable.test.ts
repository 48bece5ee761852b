// Generated code reads each {{$auth.token("ID")}} from the one variable `apiwb run` reads it from
// (SecretVariables, core/secrets/secretVariables.ts), and names that variable in its comment. An auth id
// apiwb run reads no variable for (another id of the env file, in any environment, is written alike in a
// variable's name: `a-b` and `a_b`, `Svc` and `svc`; or its name could be an environment's own, `x--y`)
// is refused in apiwb run's words: the code would otherwise read a variable meant for another secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EnvironmentSecretStore } from '../../src/cli/nodePorts/envSecretStore';
import { createCatalog } from '../../src/core/catalog/index';
import { generateSnippet } from '../../src/core/codegen/index';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { selectEnvironment } from '../../src/core/env/session';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { SecretVariables } from '../../src/core/secrets/secretVariables';

const jwt = { Type: 'JWT Bearer' };
const envFile = parseEnvFile(JSON.stringify({
  dev: { base: 'https://api.example.test', ApiWorkbench: { Auth: { 'crm.v2': jwt, 'a-b': jwt, a_b: jwt, 'x--y': jwt, svc: jwt } } },
  prod: { base: 'https://prod.example.test', ApiWorkbench: { Auth: { Svc: jwt, 'crm.v2': jwt } } },
}), 'http-client.env.json');
const allEnvironments = Object.values(envFile.environments);

function input(authId: string): Parameters<typeof generateSnippet>[0] {
  const file = parseHttpFile(`GET {{base}}/v1/things\nAuthorization: Bearer {{$auth.token("${authId}")}}\n`);
  return { file, requestIndex: 0, environment: selectEnvironment(envFile, 'dev'), allEnvironments, catalog: createCatalog([]), readInclude: () => Promise.reject(new Error('none')), knownSecrets: [] };
}

void describe('generated code reads the variable apiwb run reads', () => {
  void it('crm.v2: the code and its comment name APIWB_SECRET_CRM_V2_TOKEN, the name the CLI store reads', async () => {
    const store = new EnvironmentSecretStore({ APIWB_SECRET_CRM_V2_TOKEN: 'from-the-variable' }, undefined, new SecretVariables(allEnvironments));
    assert.equal(await store.get('crm.v2.token'), 'from-the-variable');
    for (const language of ['curl', 'python-requests', 'node']) {
      const { code } = await generateSnippet(input('crm.v2'), language);
      assert.deepEqual([...new Set(code.match(/APIWB_SECRET_\w+/g))], ['APIWB_SECRET_CRM_V2_TOKEN'], code);
      assert.match(code, /APIWB_SECRET_CRM_V2_TOKEN: the platform identity JWT of 'crm\.v2'/);
    }
  });

  void it("a-b beside a_b: refused, naming both ids and the variable they share; nothing generated", async () => {
    for (const id of ['a-b', 'a_b']) {
      await assert.rejects(generateSnippet(input(id), 'curl'), (error: Error) => {
        assert.match(error.message, new RegExp(`^\\{\\{\\$auth\\.token\\("${id}"\\)\\}\\}: apiwb run does not read APIWB_SECRET_A_B_TOKEN for it`));
        assert.match(error.message, /the auth ids 'a-b' and 'a_b' of the env file all give APIWB_SECRET_A_B_TOKEN/);
        return true;
      });
    }
  });

  void it("svc here, Svc in another environment: the ids differ only in case, so refused", async () => {
    await assert.rejects(generateSnippet(input('svc'), 'python-requests'), /the auth ids 'Svc' and 'svc' of the env file all give APIWB_SECRET_SVC_TOKEN/);
  });

  void it('x--y: its name is environment X\'s own for auth y, never read for it, so refused', async () => {
    await assert.rejects(generateSnippet(input('x--y'), 'curl'), /apiwb run does not read APIWB_SECRET_X__Y_TOKEN for it \(the auth id 'x--y'/);
  });
});
