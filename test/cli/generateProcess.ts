// Test helper: the real `generateCommand` in process, its stdout and stderr captured.
import { generateCommand } from '../../src/cli/generateCommand';
import type { CliResult } from './cliProcess';

export async function generated(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await generateCommand(args, { stdout: { write: (t: string) => { stdout += t; } }, stderr: { write: (t: string) => { stderr += t; } }, env });
  return { code, stdout, stderr };
}

/** A token of the sandbox's demo user, signed in as the generated code's comment says to. */
export async function signInToken(authUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${authUrl}/token`, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
