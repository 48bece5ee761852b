// Interoperability with other tools: copy as curl, Postman collection v2.1 import and export. All of it
// leaves secrets out unless a caller explicitly opts in (curl only).
export { curlForHttpRequest } from './curl';
export * from './postman';
