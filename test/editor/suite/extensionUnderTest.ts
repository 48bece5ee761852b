// The extension under test, found by id and activated; suites share this instead of re-deriving it.
import * as vscode from 'vscode';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';

export const EXTENSION_ID = 'api-workbench.api-workbench';

export interface PackageJson {
  readonly contributes: {
    readonly commands?: ReadonlyArray<{ readonly command: string }>;
    readonly views?: Record<string, ReadonlyArray<{ readonly id: string }>>;
  };
}

export function extensionUnderTest(): vscode.Extension<ApiWorkbenchTestApi> {
  const extension = vscode.extensions.getExtension<ApiWorkbenchTestApi>(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded in this editor`);
  return extension;
}

/** Activates the extension (a no-op when already active) and waits for its readiness promise. */
export async function activatedApi(): Promise<ApiWorkbenchTestApi> {
  const api = await extensionUnderTest().activate();
  await api.ready;
  return api;
}
