// A warning when JetBrains' http-client.private.env.json (passwords and keys by design) sits in a
// workspace folder that git would commit: git is asked (`git check-ignore`), never guessed from
// .gitignore. A folder that is not a git repository, or a machine without git, gets no warning (nothing
// there is headed for a commit). The server reads no value of the file: only whether it exists.
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';

export interface PrivateEnvWarning {
  readonly uri: string;
  readonly message: string;
}

/** true: ignored; false: git would commit it; undefined: not a git repository, or git is not available. */
export type IgnoredByGit = (file: string, folder: string) => Promise<boolean | undefined>;

export const gitCheckIgnore: IgnoredByGit = (file, folder) =>
  new Promise((resolve) => {
    execFile('git', ['check-ignore', '--quiet', '--', file], { cwd: folder, timeout: 10_000 }, (error) => {
      if (!error) return resolve(true);
      const code = (error as { code?: unknown }).code;
      resolve(code === 1 ? false : undefined);
    });
  });

export async function privateEnvWarnings(folderUris: readonly string[], ignored: IgnoredByGit = gitCheckIgnore): Promise<PrivateEnvWarning[]> {
  const warnings: PrivateEnvWarning[] = [];
  for (const folderUri of folderUris) {
    if (!folderUri.startsWith('file:')) continue;
    const folder = fileURLToPath(folderUri);
    const file = join(folder, PRIVATE_ENV_FILE_NAME);
    try {
      await access(file);
    } catch {
      continue;
    }
    if ((await ignored(file, folder)) !== false) continue;
    warnings.push({
      uri: pathToFileURL(file).toString(),
      message: `${PRIVATE_ENV_FILE_NAME} holds secrets and git would commit it: add it to .gitignore, or move its values into the secret store with "API Workbench: Import JetBrains Private Env File" and delete it.`,
    });
  }
  return warnings;
}
