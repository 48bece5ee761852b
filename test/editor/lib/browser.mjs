// Debian's chromium driven by playwright-core (never `playwright install`: it downloads a browser).
import { chromium } from 'playwright-core';
import { CHROMIUM } from './editorInstall.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

export function launchChromium() {
  // The runner handles signals itself: Playwright's own handlers would exit the process before the
  // runner had stopped code-server.
  return chromium.launch({
    executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true,
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
}
