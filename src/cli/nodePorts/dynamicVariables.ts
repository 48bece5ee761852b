// The dynamic variables REST Client, httpYac and JetBrains share ({{$uuid}}, {{$timestamp}}, ...), plus
// $auth.token / $auth.idToken delegated to the prepared AuthVariables.
import { randomInt, randomUUID } from 'node:crypto';
import type { DynamicVariableResolver } from '../../core/httpfile/resolve';

export function dynamicVariables(auth: DynamicVariableResolver, now: () => number = Date.now): DynamicVariableResolver {
  return {
    resolve(name, args) {
      switch (name) {
        case '$auth.token':
        case '$auth.idToken':
          return auth.resolve(name, args);
        case '$uuid':
        case '$guid':
        case '$random.uuid':
          return randomUUID();
        case '$timestamp':
          return String(Math.floor(now() / 1000));
        case '$isoTimestamp':
          return new Date(now()).toISOString();
        case '$randomInt': {
          const [min = 0, max = 1000] = args.split(/\s+/).filter(Boolean).map(Number);
          return Number.isFinite(min) && Number.isFinite(max) && max > min ? String(randomInt(min, max)) : undefined;
        }
        default:
          return undefined;
      }
    },
  };
}
