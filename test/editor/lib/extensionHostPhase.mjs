// Extension-host suites inside code-server: the workbench, started with the smoke-test driver, reads
// a `payload` naming the extension under development and the bundled mocha entry, runs it in the
// Node extension host and reports the outcome through window.codeAutomationExit.
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { parseResultLines } from './results.mjs';
import { withTimeout } from './codeServer.mjs';

/**
 * @returns {Promise<{ exitCode: number, results: import('./results.mjs').TestResult[] }>}
 */
export async function runExtensionHostSuites({ browser, server, workspace, extensionPath, suiteEntry, resultsFile, logFile, timeoutMs = 120_000 }) {
  const authority = new URL(server.baseUrl).host;
  const remote = (path) => `vscode-remote://${authority}${path}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(suiteEntry)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `${server.baseUrl}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const log = createWriteStream(logFile, { flags: 'a' });
  const context = await browser.newContext();
  try {
    let finish;
    const finished = new Promise((resolve) => { finish = resolve; });
    await context.exposeFunction('codeAutomationLog', (type, args) => {
      log.write(`[${type}] ${Array.isArray(args) ? args.join(' ') : String(args)}\n`);
    });
    await context.exposeFunction('codeAutomationExit', (code) => { finish(Number(code)); });
    const page = await context.newPage();
    page.on('console', (message) => log.write(`[browser:${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => log.write(`[browser:pageerror] ${error.stack ?? error}\n`));
    await page.goto(url);
    const exitCode = await withTimeout(finished, timeoutMs, 'the extension-host suites did not finish');
    const results = existsSync(resultsFile) ? parseResultLines(readFileSync(resultsFile, 'utf8')) : [];
    return { exitCode, results };
  } finally {
    await context.close().catch(() => {});
    await new Promise((resolve) => log.end(resolve));
  }
}
