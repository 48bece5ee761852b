// The one way the product says how long a credential stays valid: the tree, the status bar, the sign-in
// message, a pasted JWT's line and the README all read "2 d 23 h left" / "expired 5 min ago".

/** "2 d 23 h left", "1 h 5 min left", "42 min left", "30 s left"; "expired 3 min ago" once past. */
export function describeTimeLeft(expiresAt: number, now: number): string {
  const ms = expiresAt - now;
  const text = humanDuration(Math.abs(ms));
  return ms > 0 ? `${text} left` : `expired ${text} ago`;
}

export function humanDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 1) return `${minutes} min`;
  const days = Math.floor(hours / 24);
  if (days < 1) return `${hours} h ${minutes % 60} min`;
  return `${days} d ${hours % 24} h`;
}
