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

declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}

declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}

declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  const connect: (this: Dispatcher, options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  export default connect;
}
