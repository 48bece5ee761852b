// A client that sends no variable names (Neovim, Emacs, Helix) gets those the server reads from the env
// files: completion offers `base_url` as "environment variable of dev, prod". Hover on the same
// `{{base_url}}` must not say it is defined nowhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MarkupContent } from 'vscode-languageserver';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';

void test('hover on a variable the env files declare says so, as completion does', () => {
  const service = createHttpLanguageService();
  service.setEnvFileVariables([{ name: 'base_url', environments: ['dev', 'prod'], private: false }]);
  const offered = service.doComplete(new HttpDocument('file:///a.http', 1, 'GET {{base'), { line: 0, character: 10 }).items.find((i) => i.label === 'base_url');
  assert.match(offered?.detail ?? '', /environment variable of dev, prod/, 'completion offers it from the env file');
  const hover = service.doHover(new HttpDocument('file:///b.http', 1, 'GET {{base_url}}/a\n'), { line: 0, character: 8 });
  const text = (hover?.contents as MarkupContent | undefined)?.value ?? '';
  assert.doesNotMatch(text, /is not defined/, `hover says: ${text}`);
});

void test('a private env-file variable is said private by hover and completion; once the client sends names, only those are known', () => {
  const service = createHttpLanguageService();
  service.setEnvFileVariables([{ name: 'token', environments: ['dev'], private: true }]);
  const document = new HttpDocument('file:///c.http', 1, 'GET {{base}}/a?t={{token}}\n');
  const hoverOnToken = (): string => (service.doHover(document, { line: 0, character: 20 })?.contents as MarkupContent | undefined)?.value ?? '';
  const offered = (): string | undefined => service.doComplete(new HttpDocument('file:///d.http', 1, 'GET {{tok'), { line: 0, character: 9 }).items.find((i) => i.label === 'token')?.detail;
  assert.equal(hoverOnToken(), 'Private environment variable `token` of dev (http-client.private.env.json; its value is not read here).');
  assert.equal(offered(), 'private environment variable of dev (http-client.private.env.json; its value is not read here)');
  service.setEnvironmentVariables(['base']);
  assert.match(hoverOnToken(), /`token` is not defined/);
  assert.equal(offered(), undefined);
});
