// bindReadSecrets: a secret of an earlier response goes where it came from, the environment's origins and
// each request of the file that writes it; a value held otherwise (a stored token a response echoes back)
// keeps the binding it has, whatever request writes it afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bindReadSecrets, SecretBindings } from '../../src/core/secrets/bindings';

const TOKEN = 'tok-0123456789abcdef';

void test('a response secret follows each request that writes it', () => {
  const guard = new SecretBindings();
  const read = [{ value: TOKEN, origins: ['https://auth.example'], what: "a secret of the response of 'login'", followsRequest: true as const }];
  bindReadSecrets(guard, read, 'https://api.example');
  bindReadSecrets(guard, read, 'https://reports.example');
  assert.deepEqual(guard.originsOf(TOKEN), ['https://api.example', 'https://auth.example', 'https://reports.example']);
});

void test('a stored secret echoed by a response is never widened by a request that writes it', () => {
  const guard = new SecretBindings();
  guard.bind(TOKEN, ['https://api.example'], "the token of auth 'crm'");
  bindReadSecrets(guard, [{ value: TOKEN, origins: ['https://echo.example'], what: "a secret of the response of 'echo'", followsRequest: true }], 'https://evil.example');
  assert.deepEqual(guard.originsOf(TOKEN), ['https://api.example']);
  // Nor once it was first held as a response secret and then stored (the stricter binding wins from then on).
  const later = new SecretBindings();
  bindReadSecrets(later, [{ value: TOKEN, origins: ['https://auth.example'], what: 'r', followsRequest: true }], 'https://api.example');
  later.bind(TOKEN, ['https://api.example'], 'stored');
  bindReadSecrets(later, [{ value: TOKEN, origins: ['https://auth.example'], what: 'r', followsRequest: true }], 'https://evil.example');
  assert.deepEqual(later.originsOf(TOKEN), ['https://api.example', 'https://auth.example']);
});

void test('a value of the environment is bound once, never by the request that writes it', () => {
  const guard = new SecretBindings();
  bindReadSecrets(guard, [{ value: TOKEN, origins: ['https://api.example'], what: 'the value of {{$processEnv X}}' }], 'https://evil.example');
  assert.deepEqual(guard.originsOf(TOKEN), ['https://api.example']);
});
