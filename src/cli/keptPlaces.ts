// THE places apiwb keeps for itself and reads back, the one list every command's outputs are checked
// against (src/core/files/outputs.ts): this user's signing key (it signs the code cache and resume records,
// so rows written over it would make the server's bytes the key), the code cache's folder, and resume
// records (an --out's own is written as one, never another's). Named whether they exist yet or not: the
// key is made by the first run that needs it, perhaps after --out was claimed.
import { RunFiles, type KeptPlace } from '../core/files/outputs';
import { codeCacheDir } from './codeCache';
import { userKeyFile } from './userKeyFile';
import { RESUME_RECORDS } from './resumeFile';

function keptPlaces(): KeptPlace[] {
  const key = userKeyFile();
  // The folder whether or not this process uses it (NODE_DISABLE_COMPILE_CACHE): another run will.
  const cache = codeCacheDir({ ...process.env, NODE_DISABLE_COMPILE_CACHE: undefined });
  return [
    ...(key ? [{ role: "apiwb's signing key", file: key }] : []),
    ...(cache ? [{ role: "apiwb's code cache", folder: cache }] : []),
    RESUME_RECORDS,
  ];
}

/** The files of one command: what it reads and writes, apiwb's own places kept from its outputs. */
export function commandFiles(): RunFiles {
  return new RunFiles(keptPlaces());
}
