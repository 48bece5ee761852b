// Every zod schema of the catalog, for callers that need one directly (the sandbox validates bodies
// with them; the auth code parses token responses with them). Each is a builder: call it for the schema
// (built on its first use, the same one after).
export * from './surveyApi';
export * from './engagementPaging';
export * from './fundraising';
export * from './token';
