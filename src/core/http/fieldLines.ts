// A request field written on more than one line (`X-Tag: a`, then `X-Tag: b`) is sent as ONE field whose
// value holds every line's value in the order written, joined as HTTP lets a recipient combine repeated
// field lines (RFC 9110 §5.3): by ", "; `Cookie` pairs by "; " (RFC 6265 §5.4: a request has one Cookie
// field). Names match whatever their case; the first line's spelling is kept. Nothing the file says is
// dropped, and the parser says the repeat on the later line (httpfile/request.ts).

/** What joins the values of a field written twice. */
export function fieldLineSeparator(name: string): string {
  return name.toLowerCase() === 'cookie' ? '; ' : ', ';
}

/** `headers` with the line `name: value` added: a new field, or the value joined to the field of that name. */
export function addFieldLine(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  const same = Object.keys(headers).find((key) => key.toLowerCase() === lower);
  if (same === undefined) headers[name] = value;
  else headers[same] = `${headers[same]}${fieldLineSeparator(name)}${value}`;
}

/**
 * The words for a field written again, said on the later line. No line number: the language server checks
 * a block as a document of its own and moves only the ranges, not the words.
 */
export function repeatedFieldWords(name: string): string {
  return `${name} is written above too: both values are sent, as one field joined by "${fieldLineSeparator(name).trim()}".`;
}
