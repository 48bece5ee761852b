// Postman collection v2.1 import and export (see postman/importCollection.ts and postman/exportCollection.ts
// for the mapping). Neither direction ever writes a secret: each one dropped is reported by place, never value.
export { importPostmanCollection } from './postman/importCollection';
export { envFileWithImport } from './postman/envFileMerge';
export { exportPostmanCollection } from './postman/exportCollection';
