// The request headers the three services' contracts talk about, with the values completion offers.
/** [name, meaning, values] */
export const HEADERS: ReadonlyArray<[string, string, readonly string[]]> = [
  ['Authorization', 'Bearer token (customer-engagement, seed 000 §5.2) or Basic permission:service key (fundraising, seed 001 §5.1)', ['Bearer {{$auth.token("engagement")}}', 'Basic {{$auth.token("fundraising")}}']],
  ['X-API-Key', 'the fundraising tenant code (seed 001 §5.1)', ['{{tenant_code}}']],
  ['Content-Type', 'media type of the body; the services take JSON (the token endpoint takes a form)', ['application/json', 'application/x-www-form-urlencoded']],
  ['Accept', 'media types the response may have', ['application/json']],
  ['Accept-Language', 'preferred languages', []],
  ['Cache-Control', 'caching directives', ['no-cache']],
  ['User-Agent', 'client identification', []],
];
