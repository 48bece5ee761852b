// Every zod schema of the catalog (each a builder: call it for the schema, built on first use), for callers that need one directly (the sandbox validates bodies
// with them; the auth code parses token responses with them).
export * from './surveyApi';
export * from './engagementPaging';
export * from './fundraising';
export * from './token';
