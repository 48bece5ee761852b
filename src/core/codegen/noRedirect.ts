// A request's `# @no-redirect` in a snippet: the code httpsnippet prints follows redirects in some
// languages and not in others. Each language here either never follows ('never': the client httpsnippet
// prints does not), or gets an edit that sets its client's own no-follow option. A language missing here,
// or whose edit finds nothing to change, follows redirects: that is said, never left unsaid.
import type { SnippetLanguage } from './snippet';

type NoFollow = 'never' | ((code: string) => string);

const NO_FOLLOW: Readonly<Record<string, NoFollow>> = {
  // curl follows only with --location, which httpsnippet does not write.
  curl: 'never',
  'js-fetch': (code) => code.replace('fetch(url, options)', "fetch(url, {...options, redirect: 'manual'})"),
  // Node's http.request never follows a redirect.
  node: 'never',
  // `response = requests.get(url, …)`: requests follows unless told not to.
  'python-requests': (code) => code.replace(/^(response = requests\.\w+\(.*)\)$/m, '$1, allow_redirects=False)'),
  // http.client never follows a redirect.
  python: 'never',
  csharp: (code) => code.replace('new HttpClient()', 'new HttpClient(new HttpClientHandler { AllowAutoRedirect = false })'),
  // HttpClient.newHttpClient()'s redirect policy is NEVER.
  java: 'never',
  go: (code) => code.replace('http.DefaultClient.Do(req)', '(&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)'),
};

/** The code kept from following redirects, or the notice that it follows them. */
export function withoutRedirects(code: string, language: SnippetLanguage): { code: string; notice?: string } {
  const noFollow = Object.hasOwn(NO_FOLLOW, language.id) ? NO_FOLLOW[language.id] : undefined;
  if (noFollow === 'never') return { code };
  const edited = noFollow?.(code);
  if (edited !== undefined && edited !== code) return { code: edited };
  return { code, notice: `${language.label}: the generated code follows redirects although the request says # @no-redirect.` };
}
