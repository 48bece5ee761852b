// The sandbox the runner started for this run (test/editor/run.mjs passes its descriptor in the
// environment, never in a file). Suites that send requests call requireSandbox().
import type { SandboxDescriptor } from '../../../src/sandbox/descriptor';

export function testSandbox(): SandboxDescriptor | undefined {
  const raw = process.env.APIWB_TEST_SANDBOX;
  return raw ? (JSON.parse(raw) as SandboxDescriptor) : undefined;
}

export function requireSandbox(): SandboxDescriptor {
  const sandbox = testSandbox();
  if (!sandbox) throw new Error('this test needs the sandbox: the runner did not start one (see its output)');
  return sandbox;
}
