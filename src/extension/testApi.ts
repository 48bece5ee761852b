// What activate() returns: the composed parts, for the extension-host tests. Tests await `ready`; they never sleep.
import type { Catalog } from '../core/catalog';
import type { ServicesTreeProvider } from './servicesTree';

export interface ApiWorkbenchTestApi {
  readonly ready: Promise<void>;
  readonly catalog: () => Catalog;
  readonly servicesTree: ServicesTreeProvider;
}
