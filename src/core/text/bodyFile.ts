// A body file's bytes as the text sent: UTF-8, unless the `.http` line names another encoding
// (`<@latin1 ./body.json`, REST Client and httpYac). Every reader of a `< file` body (the CLI's, the
// editor's) decodes here, so a file reads the same wherever the request is sent from.

/** The bytes of a file read as text only (`strict`) do not decode in its encoding: not text. */
export class NotTextError extends Error {}

/**
 * `bytes` decoded as `encoding` (a WHATWG label: latin1, utf-16le, shift_jis…; undefined: UTF-8, a BOM kept
 * as written). `strict` (a multipart part, sent as text only): bytes that do not decode throw NotTextError,
 * found by the decoder itself (fatal), so a valid U+FFFD in the text is text like any other character.
 */
export function decodeBodyFile(bytes: Uint8Array, encoding: string | undefined, strict = false): string {
  let decoder: { decode(input: Uint8Array): string };
  try {
    decoder = new TextDecoder(encoding ?? 'utf-8', { ignoreBOM: true, fatal: strict });
  } catch {
    throw new Error(`'${encoding ?? ''}' is not an encoding API Workbench can read`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new NotTextError(`not text in ${encoding ?? 'UTF-8'}`);
  }
}
