// A warning when JetBrains' http-client.private.env.json (passwords and keys by design) sits in a
// workspace folder that git would commit. Whether git would is the one rule of core/env/privateEnvGit.ts
// (`apiwb run` asks it too). The server reads no value of the file: only whether it exists.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';
import { privateEnvAdvice, privateEnvCommit, privateEnvCommitWords } from '../core/env/privateEnvGit';

export interface PrivateEnvWarning {
  readonly uri: string;
  readonly message: string;
}

export async function privateEnvWarnings(folderUris: readonly string[]): Promise<PrivateEnvWarning[]> {
  const warnings: PrivateEnvWarning[] = [];
  for (const folderUri of folderUris) {
    if (!folderUri.startsWith('file:')) continue;
    const file = join(fileURLToPath(folderUri), PRIVATE_ENV_FILE_NAME);
    try {
      await access(file);
    } catch {
      continue;
    }
    const commit = await privateEnvCommit(file);
    if (!commit) continue;
    warnings.push({
      uri: pathToFileURL(file).toString(),
      message: `${privateEnvCommitWords(PRIVATE_ENV_FILE_NAME, commit)}: ${privateEnvAdvice(commit)}, or move its values into the secret store with "API Workbench: Import JetBrains Private Env File" and delete it.`,
    });
  }
  return warnings;
}
