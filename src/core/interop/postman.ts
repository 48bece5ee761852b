// Postman collection v2.1 import and export (see postman/importCollection.ts and postman/exportCollection.ts
// for the mapping). Neither direction ever writes a secret: each one dropped is reported by place, never value.
export { importPostmanCollection, envFileWithImport, identifierOf, type PostmanImport, type PostmanImportOptions, type ImportedHttpFile } from './postman/importCollection';
export { exportPostmanCollection, type HttpFileInput, type PostmanExportOptions, type PostmanExport } from './postman/exportCollection';
export { PostmanImportError, readPostmanCollection, POSTMAN_SCHEMA_V21, type PostmanCollection, type PostmanItem } from './postman/model';
export type { DroppedSecret } from './postman/secrets';
