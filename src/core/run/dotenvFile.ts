// The .env file of a request's {{$dotenv NAME}}, as REST Client finds it: `.env.<environment>` beside the
// .http file, else `.env` there. Read through the request's include port, so the editor's rules for
// reading a file (a trusted workspace; outside the folder only once asked) hold for it too.
import { parse } from 'dotenv';
import type { DotenvValues } from '../httpfile/resolve';
import { faultText } from '../text/faultText';

/** Not found, as Node (ENOENT) and the editor's file system (FileNotFound) say it. */
function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ENOENT' || code === 'FileNotFound' || /ENOENT|FileNotFound|not found/i.test(error instanceof Error ? error.message : '');
}

/** The files {{$dotenv}} reads beside the .http file, in order: the first there is taken. */
export function dotenvNames(environment: string): string[] {
  return environment ? [`.env.${environment}`, '.env'] : ['.env'];
}

export async function readDotenv(readInclude: (path: string) => Promise<string>, environment: string): Promise<DotenvValues> {
  const names = dotenvNames(environment);
  for (const name of names) {
    let text: string;
    try {
      text = await readInclude(`./${name}`);
    } catch (error) {
      if (isNotFound(error)) continue;
      return { problem: `${name}: ${faultText(error)}` };
    }
    return { file: name, values: parse(text) };
  }
  return { problem: `there is no ${names.join(' or ')} beside the .http file` };
}
