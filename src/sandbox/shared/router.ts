// A tiny router: method + path template (`/v1/constituents/{constituentId}`) → handler.
// Engagement paths match case-insensitively (its instances answer /token and /Token alike);
// parameter names in queries and bodies stay case-sensitive everywhere (seed 000 §4.2 rule 1).
import type { RequestContext } from './context';

export type Handler = (ctx: RequestContext) => void | Promise<void>;

interface Route {
  readonly method: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly handler: Handler; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

export class Router {
  private readonly routes: Route[] = [];

  constructor(private readonly caseInsensitive = false) {}

  add(method: string, template: string, handler: Handler): this {
    const names: string[] = [];
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (part.startsWith('{')) {
          names.push(part.slice(1, -1));
          return '([^/]+)';
        }
        return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      })
      .join('');
    this.routes.push({ method, regex: new RegExp(`^${source}$`, this.caseInsensitive ? 'i' : ''), names, handler });
    return this;
  }

  get(template: string, handler: Handler): this { return this.add('GET', template, handler); }
  post(template: string, handler: Handler): this { return this.add('POST', template, handler); }
  delete(template: string, handler: Handler): this { return this.add('DELETE', template, handler); }

  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => { params[name] = decodeURIComponent(m[i + 1] ?? ''); });
      return { kind: 'found', handler: route.handler, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}
