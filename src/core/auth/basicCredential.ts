// HTTP Basic (RFC 7617): the credential after "Basic " is base64 of `user:password`, in UTF-8. The one
// encoder, for every Basic credential the product builds: the fundraising service's system authentication
// (auth/credentials.ts), a credential written out in a request (run/requestShape.ts) and a proxy's user
// (http/network.ts).

/**
 * A user name Basic cannot carry, in words; undefined when it can. A colon in it would be read by the
 * server as the end of the user name (RFC 7617 §2): another user, and the rest of it taken for the password.
 */
export function basicUserProblem(user: string): string | undefined {
  return user.includes(':') ? `holds ':', which Basic authentication reads as the end of the user name (the server would sign in another user)` : undefined;
}

/** The value after "Basic ": base64 of `user:password` (UTF-8). Throws on a user name basicUserProblem refuses. */
export function basicCredential(user: string, password: string): string {
  const problem = basicUserProblem(user);
  if (problem) throw new Error(`The user name for Basic authentication ${problem}.`);
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}
