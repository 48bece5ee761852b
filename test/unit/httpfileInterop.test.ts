// Interoperability: every fixture parses here as httpYac (the reference implementation of the shared
// syntax) parses it — names, methods, URLs (continuation lines joined), headers and inline bodies.
// httpyac is a devDependency used only for this comparison; without it these tests fail (never skip).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile } from '../../src/core/httpfile';

interface HttpyacRegion {
  metaData: Record<string, unknown>;
  request?: { method?: string; url?: string; headers?: Record<string, unknown>; body?: unknown };
}
interface Httpyac {
  cli: { initFileProvider(): void };
  store: { HttpFileStore: new () => { getOrCreate(name: string, text: () => Promise<string>, version: number, options: { workingDir: string }): Promise<{ httpRegions: HttpyacRegion[] }> } };
}

const fixtures = join(import.meta.dirname, '../fixtures/http');
let httpyac: Httpyac | undefined;
let httpyacProblem = '';
try {
  httpyac = createRequire(import.meta.url)('httpyac') as Httpyac;
  httpyac.cli.initFileProvider();
} catch (error) {
  httpyacProblem = (error as Error).message;
}

const lf = (text: string): string => text.replace(/\r\n?/g, '\n');

for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.http'))) {
  void test(`interop with httpYac: ${name}`, async () => {
    if (!httpyac) throw new Error(`httpyac (a devDependency) could not be loaded: ${httpyacProblem}; run npm ci`);
    const text = readFileSync(join(fixtures, name), 'utf8');
    const store = new httpyac.store.HttpFileStore();
    const theirs = (await store.getOrCreate(join(fixtures, name), () => Promise.resolve(text), 0, { workingDir: fixtures })).httpRegions
      .filter((r) => r.request)
      .map((r) => ({
        name: typeof r.metaData.name === 'string' ? r.metaData.name : undefined,
        method: r.request?.method,
        url: r.request?.url,
        headers: r.request?.headers,
        body: typeof r.request?.body === 'string' ? lf(r.request.body) : undefined,
      }));
    const ours = parseHttpFile(text).requests.map((r) => ({
      name: r.name,
      method: r.requestLine.method,
      url: r.requestLine.url + r.queryContinuations.map((q) => q.text).join(''),
      headers: Object.fromEntries(r.headers.map((h) => [h.name, h.value])),
      body: r.body?.kind === 'inline' ? lf(r.body.text) : undefined,
    }));
    assert.deepEqual(ours, theirs);
  });
}
