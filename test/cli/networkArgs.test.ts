// `apiwb run` and `apiwb compare` take the network flags from one definition (runNetwork.ts: NETWORK_ARGS,
// networkFlagsOf, NETWORK_HELP, TLS_HELP): the same flags give the same settings, and both helps say them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRunArgs, RUN_HELP } from '../../src/cli/runArguments';
import { COMPARE_HELP, parseCompareArgs } from '../../src/cli/compare/compareArgs';
import { NETWORK_HELP, TLS_HELP } from '../../src/cli/runNetwork';

const NETWORK = ['--proxy', 'http://proxy.test:3128', '--cacert', 'a.pem', '--cacert', 'b.pem', '--insecure', '--insecure-token-endpoint'];

function networkOf(options: object | 'help'): unknown {
  assert.notEqual(options, 'help');
  const { proxy, cacert, insecure, insecureTokenEndpoint } = options as Record<string, unknown>;
  return { proxy, cacert, insecure, insecureTokenEndpoint };
}

void test('run and compare read the network flags alike, and both default to verifying TLS without a proxy', () => {
  const run = networkOf(parseRunArgs(['a.http', '--env', 'dev', ...NETWORK]));
  const compare = networkOf(parseCompareArgs(['a.http', '--env', 'dev', '--against', 'test', ...NETWORK]));
  assert.deepEqual(run, { proxy: 'http://proxy.test:3128', cacert: ['a.pem', 'b.pem'], insecure: true, insecureTokenEndpoint: true });
  assert.deepEqual(compare, run);
  const bare = networkOf(parseRunArgs(['a.http', '--env', 'dev']));
  assert.deepEqual(bare, { proxy: undefined, cacert: undefined, insecure: false, insecureTokenEndpoint: false });
  assert.deepEqual(networkOf(parseCompareArgs(['a.http', '--env', 'dev', '--against', 'test'])), bare);
});

void test('apiwb run --help and apiwb compare --help say the same network and TLS flags', () => {
  for (const help of [RUN_HELP, COMPARE_HELP]) {
    assert.ok(help.includes(NETWORK_HELP));
    assert.ok(help.includes(TLS_HELP));
    for (const flag of ['--proxy URL', '--cacert FILE', '--insecure ', '--insecure-token-endpoint']) assert.ok(help.includes(flag), flag);
  }
});
