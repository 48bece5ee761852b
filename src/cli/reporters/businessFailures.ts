// Business failures inside an HTTP 200 (seed 000 §7.2), for the CLI summary and exit code.
// Interim detector of the six conventions until the catalog's detectBusinessErrors lands; it only
// reads what the contract names and says "code N" without guessing a catalogue meaning.

export function businessFailuresOf(bodyText: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [];
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  if (record.ResponseStatus === false) return describeErrors(record.Errors, 'ResponseStatus=false');
  for (const flag of ['Response', 'response', 'Success'] as const) {
    if (record[flag] === false) {
      const errors = record.Error ?? record.Errors ?? record.errors ?? record.Message;
      return describeErrors(errors, `${flag}=false`);
    }
  }
  if (typeof record.Error === 'string' && record.Error !== '' && Object.keys(record).length <= 2) return [record.Error];
  return [];
}

function describeErrors(errors: unknown, fallback: string): string[] {
  const list = Array.isArray(errors) ? errors : errors === undefined || errors === null || errors === '' ? [] : [errors];
  const described = list.map((error) => {
    if (error !== null && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      const code = e.ErrorCode;
      const description = e.ErrorDescription;
      return `${code === undefined ? '' : `code ${String(code)}`}${typeof description === 'string' ? `${code === undefined ? '' : ': '}${description}` : ''}` || JSON.stringify(error);
    }
    return String(error);
  });
  return described.length ? described : [fallback];
}
