// The ids of every command the extension registers (vscode-free so scripts can read it).
export const COMMANDS = {
  refreshServices: 'apiWorkbench.refreshServices',
  newScratch: 'apiWorkbench.newScratch',
  send: 'apiWorkbench.send',
  sendAndFollowPages: 'apiWorkbench.sendAndFollowPages',
  selectEnvironment: 'apiWorkbench.selectEnvironment',
  signIn: 'apiWorkbench.signIn',
  signOut: 'apiWorkbench.signOut',
  pasteBearerToken: 'apiWorkbench.pasteBearerToken',
  setBasicCredentials: 'apiWorkbench.setBasicCredentials',
  forgetAllCredentials: 'apiWorkbench.forgetAllCredentials',
  deleteScratch: 'apiWorkbench.deleteScratch',
  refreshRequests: 'apiWorkbench.refreshRequests',
  saveToCollection: 'apiWorkbench.saveToCollection',
  renameRequest: 'apiWorkbench.renameRequest',
  deleteRequest: 'apiWorkbench.deleteRequest',
  moveRequest: 'apiWorkbench.moveRequest',
  copyAsCurl: 'apiWorkbench.copyAsCurl',
  importOpenApi: 'apiWorkbench.importOpenApi',
  refreshOpenApi: 'apiWorkbench.refreshOpenApi',
  importPostman: 'apiWorkbench.importPostman',
  exportPostman: 'apiWorkbench.exportPostman',
  openContractReference: 'apiWorkbench.openContractReference',
} as const;

export type CommandKey = keyof typeof COMMANDS;
