// A body file's bytes as the text sent: UTF-8, unless the `.http` line names another encoding
// (`<@latin1 ./body.json`, REST Client and httpYac). Every reader of a `< file` body (the CLI's, the
// editor's) decodes here, so a file reads the same wherever the request is sent from.

/** `bytes` decoded as `encoding` (a WHATWG label: latin1, utf-16le, shift_jis…; undefined: UTF-8, a BOM kept as written). */
export function decodeBodyFile(bytes: Uint8Array, encoding: string | undefined): string {
  let decoder: { decode(input: Uint8Array): string };
  try {
    decoder = new TextDecoder(encoding ?? 'utf-8', { ignoreBOM: true });
  } catch {
    throw new Error(`'${encoding ?? ''}' is not an encoding API Workbench can read`);
  }
  return decoder.decode(bytes);
}
