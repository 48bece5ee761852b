// Every extension-host test file, loaded lazily so mocha's globals exist when the file's body runs.
// Add a line when you add a *.test.ts here; test/editor/run.mjs fails when a test file is missing below.
export const suiteModules: ReadonlyArray<() => Promise<unknown>> = [
  () => import('./activation.test'),
  () => import('./servicesTree.test'),
  () => import('./commands.test'),
  () => import('./signIn.test'),
  () => import('./languageServer.test'),
  () => import('./sendResults.test'),
  () => import('./collections.test'),
  () => import('./history.test'),
  () => import('./privateEnv.test'),
  () => import('./restClientEnvironments.test'),
  () => import('./secretPlaces.test'),
  () => import('./untrustedExport.test'),
  () => import('./network.test'),
  () => import('./generateCode.test'),
  () => import('./compareEnvironments.test'),
  () => import('./graphqlAndEnvValues.test'),
  () => import('./largeResponse.test'),
  // Last: it searches the files every suite above made the product write.
  () => import('./secretsAtRest.test'),
];
