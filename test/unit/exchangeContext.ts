// Test helper: what the exchange prepares a request with, for an env file whose `dev` environment's
// `base` is a local server's URL, with no secret stored and no sign-in possible.
import { CredentialService } from '../../src/core/auth/credentials';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { selectEnvironment } from '../../src/core/env/session';
import type { PrepareContext } from '../../src/core/run/prepareRequest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';

export function devContext(base: string): PrepareContext {
  const environment = selectEnvironment(parseEnvFile(JSON.stringify({ dev: { base } }), 'http-client.env.json'), 'dev');
  return {
    environment,
    credentials: new CredentialService(environment, { secrets: new MemorySecretStore({}), send: () => Promise.reject(new Error('no sign-in here')) }),
    responses: new Map(),
    readInclude: () => Promise.reject(new Error('no includes')),
  };
}
