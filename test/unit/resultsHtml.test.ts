// The panel's HTML shell: strict CSP, a random nonce on the only script and stylesheet, nothing inline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildResultsHtml, contentSecurityPolicy, createNonce } from '../../src/extension/results/html';

const input = { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://x/dist/webview.js', styleUri: 'https://x/dist/webview.css' };

void test('the CSP allows only the nonce for scripts and no unsafe-inline or eval anywhere', () => {
  const csp = contentSecurityPolicy(input.cspSource, 'AAAAAAAAAAAAAAAAAAAAAA==');
  assert.equal(
    csp,
    "default-src 'none'; script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='; style-src https://file+.vscode-resource.vscode-cdn.net 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='; img-src https://file+.vscode-resource.vscode-cdn.net data:; font-src https://file+.vscode-resource.vscode-cdn.net",
  );
  assert.doesNotMatch(csp, /unsafe/);
});

void test('nonces are random, 128-bit, and on the script and stylesheet tags', () => {
  const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
  assert.equal(nonces.size, 50);
  const nonce = createNonce();
  assert.equal(Buffer.from(nonce, 'base64').length, 16);
  const html = buildResultsHtml({ ...input, nonce });
  assert.equal(html.match(/<script /g)?.length, 1);
  assert.ok(html.includes(`<script nonce="${nonce}" src="https://x/dist/webview.js">`));
  assert.ok(html.includes(`<link rel="stylesheet" nonce="${nonce}" href="https://x/dist/webview.css">`));
  assert.doesNotMatch(html, /style=|onload=|onclick=/);
});

void test('a missing or short nonce is refused; URIs are attribute-escaped', () => {
  assert.throws(() => buildResultsHtml({ ...input, nonce: '' }));
  assert.throws(() => buildResultsHtml({ ...input, nonce: 'abc' }));
  const html = buildResultsHtml({ ...input, nonce: createNonce(), scriptUri: 'https://x/"><script>alert(1)</script>' });
  assert.equal(html.match(/<script/g)?.length, 1);
});
