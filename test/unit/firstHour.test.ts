// What a new user meets in the first hour, checked where it is declared: README's commands and CI agree,
// the README names nothing outside the repository, its time-left example is the product's format, the
// context menus it promises are contributed, `.http` files get no word-based suggestions, and the sample
// workspace hides nothing from Quick Open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describeTimeLeft } from '../../src/core/auth';

const ROOT = join(import.meta.dirname, '../..');
const text = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
interface MenuEntry { command: string; when?: string; group?: string }
const manifest = JSON.parse(text('package.json')) as {
  contributes: { menus: Record<string, MenuEntry[]>; configurationDefaults?: Record<string, Record<string, unknown>>; grammars?: { path: string; embeddedLanguages?: Record<string, string> }[] };
};

void test('.ci/run runs exactly README\'s test command', () => {
  const readmeTest = /^(npm ci && npm test)\s+#/m.exec(text('README.md'))?.[1];
  assert.equal(readmeTest, 'npm ci && npm test');
  const commands = text('.ci/run').split('\n').filter((l) => l.trim() && !l.startsWith('#') && !/^(set|cd) /.test(l));
  assert.deepEqual(commands, [readmeTest]);
  assert.equal(spawnSync('bash', ['-n', join(ROOT, 'scripts/fresh-clone-check.sh')]).status, 0);
});

void test('README names nothing outside the repository, and its time left reads as the product writes it', () => {
  const readme = text('README.md');
  assert.doesNotMatch(readme, /\.\.\/shared|DESIGN\.md|seed 00\d/);
  const example = /signed in as … · ([^*]+)\*/.exec(readme)?.[1];
  assert.equal(example, describeTimeLeft(72 * 3_600_000 - 60_000, 0));
  assert.doesNotMatch(text('samples/collections/engagement-paging.http') + text('samples/collections/engagement.http'), /DESIGN\.md|seed 00\d/);
});

void test('the Environments rows the README names have context-menu actions, not only inline icons', () => {
  const context = manifest.contributes.menus['view/item/context'] ?? [];
  const inMenu = (command: string, viewItem: string): boolean => context.some((m) => m.command === `apiWorkbench.${command}` && m.group !== 'inline'
    && m.when?.includes('view == apiWorkbench.environments') === true
    && (m.when.includes(`viewItem == ${viewItem}`) || new RegExp(/viewItem =~ \/(.+)\//.exec(m.when)?.[1] ?? '^$').test(viewItem)));
  for (const [command, viewItem] of [
    ['setBasicCredentials', 'authBasic'], ['pasteBearerToken', 'authJwt'], ['signIn', 'authSignedOut'], ['signOut', 'authSignedIn'],
    ['selectEnvironment', 'environmentActive'], ['selectEnvironment', 'environment'], ['signIn', 'environmentActive'],
    ['setBasicCredentials', 'environmentActive'], ['pasteBearerToken', 'environmentActive'], ['forgetAllCredentials', 'environmentActive'],
    ['forgetAllCredentials', 'authBasic'], ['forgetAllCredentials', 'authJwt'],
  ] as const) assert.ok(inMenu(command, viewItem), `${command} on ${viewItem}`);
});

void test('.http files: word-based suggestions are off by default, bodies included', () => {
  assert.equal(manifest.contributes.configurationDefaults?.['[http]']?.['editor.wordBasedSuggestions'], 'off');
  // The editor reads language settings for the language at the cursor: a JSON body mapped to the embedded
  // language "json" would read [json]'s (word suggestions on). Bodies stay "http" (their scopes still colour them).
  for (const grammar of manifest.contributes.grammars ?? []) {
    assert.deepEqual(Object.values(grammar.embeddedLanguages ?? {}).filter((language) => language !== 'http'), [], `${grammar.path} maps no scope to another language`);
  }
});

void test('the sample workspace has no ignore file of its own: Quick Open finds the samples copied into it', () => {
  assert.equal(existsSync(join(ROOT, 'samples/workspace/.gitignore')), false);
  // git still ignores what npm start writes there, from the repository's root.
  const rootIgnore = text('.gitignore').split('\n');
  for (const path of ['/samples/workspace/collections/samples/', '/samples/workspace/http-client.env.json', '/samples/workspace/apiwb-results/']) {
    assert.ok(rootIgnore.includes(path), path);
  }
});
