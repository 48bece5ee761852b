// HTTP Basic (RFC 7617): the credential after "Basic " is base64 of `user:password`, in UTF-8. The one
// encoder, for every Basic credential the product builds: the fundraising service's system authentication
// (auth/credentials.ts), a credential written out in a request (run/requestShape.ts) and a proxy's user
// (http/network.ts).

/** The value after "Basic ": base64 of `user:password` (UTF-8). */
export function basicCredential(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}
