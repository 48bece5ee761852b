// A request as a snippet in the languages integrators use, printed by httpsnippet (Kong's, the library
// every client of this kind uses), never by a printer of our own. What is ours: the table of languages,
// the comment on top (what the request is, where its contract says so, how to make each secret) and
// the one change to what httpsnippet prints: a secret marker inside a string literal becomes a read of
// its environment variable, in that language's own expression, so no secret is ever in the text; and a
// request's `# @no-redirect` kept in the code or said (noRedirect.ts).
import { HTTPSnippet, type HarRequest, type TargetId } from 'httpsnippet';
import type { HttpRequest } from '../http/types';
import { followsRedirects } from '../httpfile/directives';
import { withoutRedirects } from './noRedirect';
import type { CodegenRequest, SecretInput } from './request';
import { CodegenError } from './request';
import { decodeFormValue } from '../text/decode';
import { faultText } from '../text/faultText';

export interface SnippetLanguage {
  readonly id: string;
  readonly label: string;
  readonly target: TargetId;
  readonly client: string;
  /** The editor's language id of an untitled document. */
  readonly languageId: string;
  readonly comment: string;
  /** The quote of the string literals httpsnippet writes header values in. */
  readonly quote: "'" | '"';
  /** How the language reads an environment variable, and how it joins strings. */
  readonly env: (name: string) => string;
  readonly join: string;
  /** Makes the env read compile: an import added to what httpsnippet wrote. */
  readonly withImports?: (code: string) => string;
  /** Mends what httpsnippet 3.0.10 prints wrong for this language. */
  readonly mend?: (code: string) => string;
}

/**
 * httpsnippet writes PowerShell's -Body in single quotes without doubling the quotes inside it (a body
 * holding "it's" ends the string early); PowerShell's single-quoted strings escape ' as ''.
 */
const doubledBodyQuotes = (code: string): string =>
  code.replace(/(-Body ')(.*)'$/m, (_all, head: string, inner: string) => `${head}${inner.replace(/'/g, "''")}'`);

/**
 * httpsnippet writes each pair of a form body to curl as `--data 'name=value'`, the value as it is: curl
 * sends it unencoded (`city=bern x&y` makes two fields). `--data-urlencode 'name=value'` encodes the value.
 */
const encodedFormPairs = (code: string): string =>
  (/^\s*--header '?content-type: application\/x-www-form-urlencoded/im.test(code) ? code.replace(/^(\s+)--data (?!-)/gm, '$1--data-urlencode ') : code);

const addLineAfter = (pattern: RegExp, line: string, fallbackFirst: boolean) => (code: string): string =>
  pattern.test(code) ? code.replace(pattern, (m) => `${m}\n${line}`) : fallbackFirst ? `${line}\n${code}` : code;

export const SNIPPET_LANGUAGES: readonly SnippetLanguage[] = [
  { id: 'curl', label: 'curl', target: 'shell', client: 'curl', languageId: 'shellscript', comment: '#', quote: "'", env: (n) => `"\${${n}}"`, join: '', mend: encodedFormPairs },
  { id: 'js-fetch', label: 'JavaScript fetch', target: 'javascript', client: 'fetch', languageId: 'javascript', comment: '//', quote: "'", env: (n) => `process.env.${n}`, join: ' + ' },
  { id: 'node', label: 'Node.js http', target: 'node', client: 'native', languageId: 'javascript', comment: '//', quote: "'", env: (n) => `process.env.${n}`, join: ' + ' },
  {
    id: 'python-requests', label: 'Python requests', target: 'python', client: 'requests', languageId: 'python', comment: '#', quote: '"',
    env: (n) => `os.environ["${n}"]`, join: ' + ', withImports: (code) => `import os\n${code}`,
  },
  {
    id: 'python', label: 'Python standard library', target: 'python', client: 'python3', languageId: 'python', comment: '#', quote: '"',
    env: (n) => `os.environ["${n}"]`, join: ' + ', withImports: (code) => `import os\n${code}`,
  },
  { id: 'csharp', label: 'C# HttpClient', target: 'csharp', client: 'httpclient', languageId: 'csharp', comment: '//', quote: '"', env: (n) => `Environment.GetEnvironmentVariable("${n}")`, join: ' + ' },
  { id: 'java', label: 'Java HttpClient', target: 'java', client: 'nethttp', languageId: 'java', comment: '//', quote: '"', env: (n) => `System.getenv("${n}")`, join: ' + ' },
  {
    id: 'go', label: 'Go net/http', target: 'go', client: 'native', languageId: 'go', comment: '//', quote: '"', env: (n) => `os.Getenv("${n}")`, join: ' + ',
    withImports: addLineAfter(/^import \(/m, '\t"os"', false),
  },
  { id: 'powershell', label: 'PowerShell', target: 'powershell', client: 'restmethod', languageId: 'powershell', comment: '#', quote: '"', env: (n) => `$env:${n}`, join: ' + ', mend: doubledBodyQuotes },
];

function snippetLanguage(id: string): SnippetLanguage | undefined {
  return SNIPPET_LANGUAGES.find((l) => l.id === id);
}

/**
 * The body as HAR postData. httpsnippet prints a form (application/x-www-form-urlencoded) from its
 * `params` only (given text alone it sends an empty body), so a form body goes as its pairs, decoded:
 * each language encodes them again as it writes a form.
 */
function postDataOf(body: string, contentType: string | undefined): HarRequest['postData'] {
  const mimeType = contentType ?? 'application/octet-stream';
  if (!/^\s*application\/x-www-form-urlencoded\b/i.test(mimeType)) return { mimeType, text: body };
  const params = body.split('&').filter((pair) => pair !== '').map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? { name: decodeFormValue(pair), value: '' } : { name: decodeFormValue(pair.slice(0, eq)), value: decodeFormValue(pair.slice(eq + 1)) };
  });
  return { mimeType, text: body, params };
}

function toHar(request: HttpRequest): HarRequest {
  const headers = Object.entries(request.headers).map(([name, value]) => ({ name, value }));
  const contentType = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return {
    method: request.method.toUpperCase(), url: request.url, httpVersion: 'HTTP/1.1', headers, cookies: [], queryString: [],
    headersSize: -1, bodySize: -1,
    ...(request.body !== undefined ? { postData: postDataOf(request.body, contentType) } : {}),
  } as HarRequest;
}

/**
 * Every marker becomes the language's read of its variable, spliced into the literal around it:
 * `'Bearer __M__'` → `'Bearer ' + process.env.X`. A marker httpsnippet did not leave inside a literal of
 * the expected quote would print wrong code, so it fails instead.
 */
export function spliceSecrets(code: string, language: SnippetLanguage, secrets: readonly SecretInput[]): string {
  let out = code;
  for (const secret of secrets) {
    const q = language.quote;
    const read = language.env(secret.envVar);
    const spliced = `${q}${language.join}${read}${language.join}${q}`;
    const lines = out.split('\n').map((line) => {
      if (!line.includes(secret.marker)) return line;
      const before = line.slice(0, line.indexOf(secret.marker));
      if ((before.split(q).length - 1) % 2 !== 1) throw new CodegenError(`${language.label}: a secret is not inside a ${q}-quoted literal; nothing was generated`);
      return line.split(secret.marker).join(spliced)
        .split(`${language.join}${read}${language.join}${q}${q}`).join(`${language.join}${read}`)
        .split(`${q}${q}${language.join}${read}`).join(read);
    });
    out = lines.join('\n');
  }
  return out;
}

/** The comment on top of a snippet: what it sends and how to make each secret it reads. */
function headerComment(prefix: string, title: string, about: readonly string[], secrets: readonly SecretInput[]): string {
  const lines = [title, ...about];
  if (secrets.length > 0) {
    lines.push('Secrets are never written here: they are read from environment variables, named as apiwb names them.');
    for (const secret of secrets) lines.push(...secret.howTo);
  }
  return lines.map((line) => `${prefix} ${line}`.trimEnd()).join('\n');
}

export interface Snippet {
  readonly language: SnippetLanguage;
  readonly code: string;
  /** What the code does not do as the request says (also in its comment). */
  readonly notices: readonly string[];
}

export function requestSnippet(input: CodegenRequest, languageId: string, about: readonly string[]): Snippet {
  const language = snippetLanguage(languageId);
  if (!language) throw new CodegenError(`--lang must be one of ${SNIPPET_LANGUAGES.map((l) => l.id).join(', ')}, not '${languageId}'`);
  let converted: ReturnType<HTTPSnippet['convert']>;
  try {
    converted = new HTTPSnippet(toHar(input.request)).convert(language.target, language.client);
  } catch (error) {
    // httpsnippet validates the request as HAR: an address that is not a URL ends here.
    throw new CodegenError(`httpsnippet could not print ${input.request.method.toUpperCase()} ${input.request.url} (${faultText(error)}): is every {{variable}} of the URL set in the environment?`);
  }
  const printed = Array.isArray(converted) ? converted[0] : converted;
  if (typeof printed !== 'string') throw new CodegenError(`${language.label}: httpsnippet printed nothing`);
  let code = spliceSecrets(language.mend ? language.mend(printed) : printed, language, input.secrets);
  if (input.secrets.length > 0 && language.withImports) code = language.withImports(code);
  const notices: string[] = [];
  if (!followsRedirects(input.directives)) {
    const kept = withoutRedirects(code, language);
    code = kept.code;
    if (kept.notice) notices.push(kept.notice);
  }
  const title = `${input.name ?? 'request'}: ${input.request.method.toUpperCase()} ${input.request.url}`;
  return { language, code: `${headerComment(language.comment, title, [...about, ...notices], input.secrets)}\n\n${code.trimEnd()}\n`, notices };
}
