// Interoperability with other tools: copy as curl, Postman collection v2.1 import and export. All of it
// leaves secrets out unless a caller explicitly opts in (curl only).
export { toCurl, curlForHttpRequest } from './curl';
export { shellQuote } from './shellQuote';
export * from './postman';
