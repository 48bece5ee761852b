// The one error an OpenAPI import throws for a document it cannot use. The message always starts with
// the source (URL or file path) so the user knows which document is wrong, then says why in words.
export class OpenApiImportError extends Error {
  constructor(
    /** The document's URL or file path, as the user gave it. */
    readonly source: string,
    /** Why, in words, without the source. */
    readonly detail: string,
  ) {
    super(`${source}: ${detail}`);
    this.name = 'OpenApiImportError';
  }
}
