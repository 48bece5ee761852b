// THE rule of when http-client.private.env.json (secrets by design) is headed for a commit: git is asked,
// never guessed from .gitignore. Tracked (`git ls-files`) means its values are already in the history and
// every change goes with the next commit; not tracked and not ignored (`git check-ignore`) means the next
// `git add .` takes it. Ignored, a folder outside any git work tree, or no git on the machine: no warning
// (nothing there is headed for a commit). Only whether the file exists is looked at, never its values.
// The language server's warning (src/server/privateEnvWarning.ts) and `apiwb run`'s both ask here.
import { execFile } from 'node:child_process';
import { basename, dirname } from 'node:path';

/** 'tracked' / 'not-ignored': git would commit it; undefined: ignored, not in a work tree, or no git. */
type PrivateEnvCommit = 'tracked' | 'not-ignored' | undefined;

/** How a caller asks git (a test may answer itself). */
type AskGit = (args: readonly string[], cwd: string) => Promise<number | undefined>;

/** Runs git and answers its exit code; undefined when git could not be run. */
const runGit: AskGit = (args, cwd) =>
  new Promise((resolve) => {
    execFile('git', [...args], { cwd, timeout: 10_000 }, (error) => {
      if (!error) return resolve(0);
      const code = (error as { code?: unknown }).code;
      resolve(typeof code === 'number' ? code : undefined);
    });
  });

export async function privateEnvCommit(file: string, git: AskGit = runGit): Promise<PrivateEnvCommit> {
  const cwd = dirname(file);
  const name = basename(file);
  if ((await git(['ls-files', '--error-unmatch', '--', name], cwd)) === 0) return 'tracked';
  // 0: ignored; 1: not ignored; 128 (or no git): not a work tree.
  return (await git(['check-ignore', '--quiet', '--', name], cwd)) === 1 ? 'not-ignored' : undefined;
}

/** The product's words for it: `<file> holds secrets and git would commit it` (each surface adds its advice). */
export function privateEnvCommitWords(shown: string, commit: Exclude<PrivateEnvCommit, undefined>): string {
  return commit === 'tracked'
    ? `${shown} holds secrets and git tracks it: its values are in the repository's history and git would commit every change`
    : `${shown} holds secrets and git would commit it`;
}

/** What to do about it, in the product's words: `add it to .gitignore` (and, tracked, take it out of the index). */
export function privateEnvAdvice(commit: Exclude<PrivateEnvCommit, undefined>): string {
  return commit === 'tracked' ? 'untrack it (git rm --cached) and add it to .gitignore' : 'add it to .gitignore';
}
