// What activate() returns: the composed parts, for the extension-host tests. Tests await `ready`; they never sleep.
import type { Catalog } from '../core/catalog';
import type { EnvironmentController } from './environments/environmentController';
import type { ResultsPanel } from './results/ResultsPanel';
import type { SendController } from './send/sendController';
import type { ServicesTreeProvider } from './servicesTree';
import type { EnvironmentsTreeProvider } from './environments/environmentsTree';
import type { RequestsTreeProvider } from './requests/requestsTree';
import type { ScratchFiles } from './requests/scratchFiles';

export interface ApiWorkbenchTestApi {
  /** Resolves when the env file is loaded and the language client has started. */
  readonly ready: Promise<void>;
  readonly catalog: () => Catalog;
  readonly servicesTree: ServicesTreeProvider;
  readonly environmentsTree: EnvironmentsTreeProvider;
  readonly requestsTree: RequestsTreeProvider;
  readonly environments: EnvironmentController;
  readonly scratches: ScratchFiles;
  readonly results: ResultsPanel;
  readonly sender: SendController;
}
