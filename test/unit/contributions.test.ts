import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contributionProblems } from '../../scripts/contributions';

const commands = { send: 'x.send', stop: 'x.stop' };
const registering = (...keys: string[]): string[] => keys.map((k) => `vscode.commands.registerCommand(COMMANDS.${k}, () => 1)`);
const pkg = (...ids: string[]) => ({ contributes: { commands: ids.map((command) => ({ command })) } });

void test('agreeing contributions, ids and registrations have no problem', () => {
  assert.deepEqual(contributionProblems(pkg('x.send', 'x.stop'), commands, registering('send', 'stop')), []);
});

void test('a contributed command that is never registered is a problem', () => {
  assert.deepEqual(contributionProblems(pkg('x.send', 'x.stop'), commands, registering('send')), [
    'contributed in package.json but never registered: x.stop',
    'declared in COMMANDS but never registered: x.stop',
  ]);
});

void test('a registered command that package.json does not contribute is a problem', () => {
  assert.deepEqual(contributionProblems(pkg('x.send'), commands, registering('send', 'stop')), [
    'registered in code but not contributed in package.json: x.stop',
  ]);
});

void test('a menu naming an uncontributed command is a problem', () => {
  const withMenu = { contributes: { commands: [{ command: 'x.send' }, { command: 'x.stop' }], menus: { 'view/title': [{ command: 'x.gone' }] } } };
  assert.deepEqual(contributionProblems(withMenu, commands, registering('send', 'stop')), ['menu view/title names an uncontributed command: x.gone']);
});
