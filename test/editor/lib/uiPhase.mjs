// UI suites: Playwright drives the workbench as a user would, against the installed VSIX (no test
// payload). Every test/ui/*.ui.mjs exports { name, run(page, ctx) }; they share one loaded workbench.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withTimeout } from './codeServer.mjs';

/** Loads the UI test modules, sorted by file name; `filter` keeps those whose name or file contains it. */
export async function loadUiTests(dir, filter) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ui.mjs')).sort();
  const tests = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    const test = mod.default ?? mod;
    if (typeof test.name !== 'string' || typeof test.run !== 'function') {
      throw new Error(`${file} must export { name: string, run(page, ctx) }`);
    }
    if (!filter || test.name.includes(filter) || file.includes(filter)) tests.push({ file, name: test.name, run: test.run, cleanup: test.cleanup, timeoutMs: test.timeoutMs });
  }
  return tests;
}

/**
 * @returns {Promise<import('./results.mjs').TestResult[]>}
 */
export async function runUiSuites({ browser, server, workspace, tests, screenshotsDir, logFile, extras = {}, testTimeoutMs = 60_000 }) {
  await mkdir(screenshotsDir, { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const results = [];
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (message) => log.write(`[browser:${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => log.write(`[browser:pageerror] ${error.stack ?? error}\n`));
    const workbenchUrl = `${server.baseUrl}/?folder=${encodeURIComponent(workspace)}`;
    const ctx = {
      ...extras,
      baseUrl: server.baseUrl,
      workbenchUrl,
      workspace,
      screenshotsDir,
      /** Saves a PNG of the whole window under the screenshots folder; returns its path. */
      async screenshot(name) {
        const path = join(screenshotsDir, `${name}.png`);
        await page.screenshot({ path });
        return path;
      },
      log: (message) => log.write(`[ui-test] ${message}\n`),
    };
    await openWorkbench(page, workbenchUrl);
    for (const test of tests) {
      const started = Date.now();
      log.write(`[ui-test] start: ${test.name}\n`);
      try {
        await withTimeout(Promise.resolve(test.run(page, ctx)), test.timeoutMs ?? testTimeoutMs, `UI test "${test.name}" did not finish`);
        results.push({ title: test.name, state: 'passed', durationMs: Date.now() - started });
      } catch (error) {
        const shot = join(screenshotsDir, `FAILED-${test.file.replace(/\.ui\.mjs$/, '')}.png`);
        await page.screenshot({ path: shot }).catch(() => {});
        results.push({ title: test.name, state: 'failed', durationMs: Date.now() - started, error: `${error?.stack ?? error}\n(screenshot: ${shot})` });
      }
      // A test's own clean-up runs after the failure screenshot, so the picture shows what went wrong.
      if (test.cleanup) await Promise.resolve(test.cleanup(page, ctx)).catch((error) => log.write(`[ui-test] cleanup of ${test.name} failed: ${error?.stack ?? error}\n`));
      // The next test starts from a calm workbench: no open quick input, menu or hover.
      await page.keyboard.press('Escape').catch(() => {});
    }
  } finally {
    await context.close().catch(() => {});
    await new Promise((resolve) => log.end(resolve));
  }
  return results;
}

/** Loads the workbench and waits until its activity bar is interactive. */
export async function openWorkbench(page, url) {
  await page.goto(url);
  await page.locator('.monaco-workbench .activitybar').waitFor({ state: 'visible', timeout: 60_000 });
}
