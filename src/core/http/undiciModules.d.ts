// The undici modules src/core/http/undiciCore.ts loads instead of the package's index.js, typed by
// undici's own declarations of what they are.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/core/util.js' {
  export function parseURL(url: string): URL;
  export function isHttpOrHttpsPrefixed(value: string | null | undefined): boolean;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
