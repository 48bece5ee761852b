// The fundraising service's system authentication (seed 001 §5.1): HTTP Basic with the permission name
// as user name and the service key as password, plus the tenant code in X-API-Key. Both headers, always.

/** The value after "Basic ": base64 of `permission:serviceKey` (what {{$auth.token("id")}} gives). */
export function basicCredentialToken(permissionName: string, serviceKey: string): string {
  return Buffer.from(`${permissionName}:${serviceKey}`, 'utf8').toString('base64');
}
