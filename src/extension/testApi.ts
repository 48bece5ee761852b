// What activate() returns: the composed parts, for the extension-host tests. Tests await `ready`; they never sleep.
import type { Catalog } from '../core/catalog';
import type { Workbench } from './workbench';

export type ApiWorkbenchTestApi =
  Pick<Workbench, 'servicesTree' | 'environmentsTree' | 'requestsTree' | 'environments' | 'scratches' | 'results' | 'sender' | 'history' | 'compare'> & {
    /** Resolves when the workbench is loaded, the env file read and the language client started. */
    readonly ready: Promise<void>;
    /** The catalog in use now (contracts plus imported OpenAPI overlays). */
    readonly catalog: () => Catalog;
  };
