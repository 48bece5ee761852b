// The dynamic variables REST Client, httpYac and JetBrains share ({{$uuid}}, {{$timestamp}}, ...).
// $auth.* is not here: prepareRequest answers it from the credential service.
import { randomInt, randomUUID } from 'node:crypto';
import type { DynamicVariableResolver } from '../httpfile/resolve';

export function dynamicVariables(now: () => number = Date.now): DynamicVariableResolver {
  return {
    resolve(name, args) {
      switch (name) {
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
