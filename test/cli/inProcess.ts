// Test helper: the real `runCommand` (or another subcommand taking the same io) in process, its stdout
// and stderr captured (not a TTY, no colour).
import './signedRecord'; // the runs' signing key: a config folder of the test's own
import { runCommand } from '../../src/cli/runCommand';
import type { RunIo } from '../../src/cli/runArguments';
import type { CliResult } from './cliProcess';

export function runInProcess(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return commandInProcess(runCommand, args, env);
}

export async function commandInProcess(command: (args: readonly string[], io: RunIo) => Promise<number>, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (text: string) => void) => ({ isTTY: false, columns: 80, write: (text: string) => { add(text); return true; } }) as unknown as NodeJS.WriteStream;
  const io: RunIo = { stdout: sink((t) => { stdout += t; }), stderr: sink((t) => { stderr += t; }), env: { NO_COLOR: '1', ...env } };
  const code = await command(args, io);
  return { code, stdout, stderr };
}
