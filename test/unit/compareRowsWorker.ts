// A worker entry for the tests of src/core/compare/rowsWorker.ts (compareWalking.test.ts): the module a
// rows worker loads serves its job when loaded, as `apiwb compare`'s bundle does.
import { serveRowsWorker } from '../../src/core/compare/rowsWorker';

serveRowsWorker();
