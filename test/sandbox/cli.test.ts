// `apiwb sandbox --json` as a stranger runs it: a real process, one JSON line, enough to sign in and
// call every service, then a clean stop on SIGTERM (issue 3, "Must show").
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { sandboxSubcommand } from '../../src/cli/sandboxCommand';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { basicHeaders, engagementGet, signIn } from './helpers';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`exited (${String(code)}) before printing a line`)));
    child.once('error', reject);
  });
}

void describe('apiwb sandbox (issue 3)', () => {
  void it('--json prints one JSON line once every service listens; it is enough to call every service; SIGTERM stops it cleanly', { timeout: 60_000 }, async () => {
    // detached: its own process group, so SIGTERM reaches tsx's node child through npx.
    const child = spawn(npx, ['tsx', 'src/cli/main.ts', 'sandbox', '--json', '--export-rows', '1000', '--orders', '600', '--choice', 'required-fields=on'], {
      stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    try {
      const d = JSON.parse(await firstLine(child)) as SandboxDescriptor;
      assert.deepEqual(Object.keys(d), ['engagement', 'fundraising', 'booking', 'credentials', 'samples', 'choices']);
      for (const url of [d.engagement.baseUrl, d.engagement.authUrl, d.fundraising.baseUrl, d.booking.baseUrl]) {
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+/);
      }
      assert.equal(d.samples.ordersOfCtcID, 600);
      assert.equal(d.samples.exportRows, 1000);
      assert.equal(d.choices['required-fields'], true, '--choice switched it on');
      assert.equal(d.choices['invalid-parameters'], true);

      const token = await signIn(d);
      const orders = await engagementGet(d, token, `/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&pageSize=500`);
      assert.equal(orders.body['TotalOrders'], 600);
      const constituents = await fetch(`${d.fundraising.baseUrl}/v1/constituents/${d.samples.constituentId}`, { headers: basicHeaders(d) });
      assert.equal(constituents.status, 200);
      const withJwt = await fetch(`${d.fundraising.baseUrl}/v1/lists/${d.samples.listDefinitionId}`, { headers: { authorization: `Bearer ${d.credentials.fundraising.jwt.token}` } });
      assert.equal(withJwt.status, 200);
      assert.equal((await fetch(`${d.booking.baseUrl}/bookings`)).status, 200);
    } finally {
      const exited = once(child, 'exit');
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      // npx itself may die of the group signal; what matters is that nothing is left listening.
      assert.ok(code === 0 || signal === 'SIGTERM', `exit ${String(code)} ${String(signal)}`);
    }
  });

  async function usageError(args: string[]): Promise<{ code: number; text: string }> {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => { written.push(String(chunk)); return true; });
    try {
      return { code: await sandboxSubcommand.run(args), text: written.join('') };
    } finally {
      process.stderr.write = original;
    }
  }

  void it('a bad flag is a usage error (exit 2) that shows the options', async () => {
    const { code, text } = await usageError(['--fail-page', 'sideways:1:drop']);
    assert.equal(code, 2);
    assert.match(text, /fail-page style 'sideways'/);
    assert.match(text, /--export-rows N/);
  });

  void it('--choice with an unknown name, or switching a fixed choice, is a usage error naming the choices', async () => {
    const unknown = await usageError(['--choice', 'be-nice=on']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.text, /sandbox choice 'be-nice=on'.*required-fields/);
    const fixed = await usageError(['--choice', 'token-errors=off']);
    assert.equal(fixed.code, 2);
    assert.match(fixed.text, /'token-errors' cannot be switched/);
  });
});
