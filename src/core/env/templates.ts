// `{{name}}` substitution for env-file values (e.g. "Token URL": "{{engagement_auth_url}}/token").
// Request-level resolution, with $auth and named responses, belongs to the .http layer; this one only
// knows plain variables and leaves anything else untouched so that layer can still see it.

import { MAX_EXPANDED_LENGTH } from '../httpfile/resolve';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/**
 * The text with its `{{variables}}` substituted, ten rounds at most (a cycle, a = {{b}} and b = {{a}},
 * stops there). Throws when the text grows past the expansion budget (self-doubling definitions).
 */
export function substituteVariables(text: string, variables: Readonly<Record<string, string>>): string {
  let current = text;
  for (let round = 0; round <= 10; round++) {
    let changed = false;
    const out = current.replace(PLACEHOLDER, (whole, name: string) => {
      const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (value === undefined) return whole;
      changed = true;
      return value;
    });
    if (out.length > MAX_EXPANDED_LENGTH) {
      throw new Error(`its {{variables}} expand to more than ${MAX_EXPANDED_LENGTH.toLocaleString('en')} characters: variables that repeat each other (such as "a": "{{b}}{{b}}") grow without bound`);
    }
    if (!changed) return out;
    current = out;
  }
  return current;
}
