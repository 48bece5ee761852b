// Where apiwb keeps this user's key file: the one key (src/core/files/userKey.ts) that signs the files apiwb
// reads back itself, each use for its own purpose: the code cache's entries (./codeCache.ts) and the resume
// records beside --out (./resumeFile.ts).
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

/** The name it had when only the code cache used it: a key made then still signs. */
const KEY_FILE_NAME = 'code-cache.key';

/**
 * This user's key file: in the per-user config folder, not the cache folder (a cache folder shared or
 * restored from elsewhere does not carry it), nor beside --out. Undefined where there is none.
 */
export function userKeyFile(env: Readonly<Record<string, string | undefined>> = process.env, platform: string = process.platform, home: () => string = homedir): string | undefined {
  const absolute = (path: string | undefined): path is string => !!path && (platform === 'win32' ? win32 : posix).isAbsolute(path);
  try {
    if (absolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'apiwb', KEY_FILE_NAME);
    if (platform === 'win32') return absolute(env.APPDATA) ? join(env.APPDATA, 'apiwb', KEY_FILE_NAME) : undefined;
    const userHome = home();
    if (!absolute(userHome)) return undefined;
    if (platform === 'darwin') return join(userHome, 'Library', 'Application Support', 'apiwb', KEY_FILE_NAME);
    return join(userHome, '.config', 'apiwb', KEY_FILE_NAME);
  } catch {
    return undefined;
  }
}
