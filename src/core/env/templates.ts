// `{{name}}` substitution for env-file values (e.g. "Token URL": "{{engagement_auth_url}}/token").
// Request-level resolution, with $auth and named responses, belongs to the .http layer; this one only
// knows plain variables and leaves anything else untouched so that layer can still see it.

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export function substituteVariables(text: string, variables: Readonly<Record<string, string>>, depth = 0): string {
  if (depth > 10) return text; // a cycle (a = {{b}}, b = {{a}}): stop instead of looping
  let changed = false;
  const out = text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = variables[name];
    if (value === undefined) return whole;
    changed = true;
    return value;
  });
  return changed ? substituteVariables(out, variables, depth + 1) : out;
}
