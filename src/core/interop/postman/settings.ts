// A Postman request's settings (`protocolProfileBehavior`) and a .http request's directives, both ways:
// `followRedirects: false` is `# @no-redirect` (the one directive every sender of the product reads).
// On import, a setting a .http file holds anyway (`disableBodyPruning`: a body is sent as written, whatever
// the method; `followRedirects: true`: redirects are followed unless a directive says not) needs no word;
// every other setting is named in a warning. So no setting of an imported request is left behind unsaid.
import { followsRedirects } from '../../httpfile/directives';
import { isJsonObject } from '../../json/numberText';
import { oneLine } from '../../text/oneLine';

/** A request's directives as imported or written: one per line, in order. */
type DirectiveLines = ReadonlyArray<{ key: string; value: string }>;

/** Settings a .http request keeps without a line of its own, when they hold these values. */
const HELD_ANYWAY: Readonly<Record<string, unknown>> = { disableBodyPruning: true, followRedirects: true };

/** The directives a request's settings add to `directives` (as imported so far); what no line can hold is a warning. */
export function settingsDirectives(settings: unknown, directives: DirectiveLines, where: string, warnings: string[]): Array<{ key: string; value: string }> {
  if (!isJsonObject(settings)) return [];
  const added: Array<{ key: string; value: string }> = [];
  for (const [name, value] of Object.entries(settings)) {
    if (HELD_ANYWAY[name] === value) continue;
    if (name === 'followRedirects' && value === false) {
      if (redirectsFollowed(directives)) added.push({ key: 'no-redirect', value: '' });
      continue;
    }
    // Named, never its value: a setting may hold anything, and an import's words are shown as they are.
    warnings.push(`${where}: the Postman setting '${oneLine(name)}' is not imported; a .http request has no line for it.`);
  }
  return added;
}

/** The Postman settings a block's directives ask for (export): none, or `followRedirects: false`. */
export function postmanSettings(directives: DirectiveLines): { protocolProfileBehavior?: { followRedirects: false } } {
  return redirectsFollowed(directives) ? {} : { protocolProfileBehavior: { followRedirects: false } };
}

/** Whether a request with these directives (as written, one per line) follows redirects: the product's one rule, followsRedirects. */
function redirectsFollowed(directives: DirectiveLines): boolean {
  return followsRedirects(Object.fromEntries(directives.map((d) => [d.key, d.value])));
}
