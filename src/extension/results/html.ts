// The results panel's HTML shell: a strict Content-Security-Policy with a fresh random nonce, one script and
// one stylesheet from the extension's dist/, and an empty root the webview fills with DOM APIs. No response
// content is ever interpolated here. Kept free of 'vscode' so the browser tests serve the very same page.
import { randomBytes } from 'node:crypto';

export interface ResultsHtmlInput {
  /** webview.cspSource: the origin the editor serves local resources from. */
  readonly cspSource: string;
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
}

/** 128 bits from the OS's CSPRNG, base64: a nonce nobody can predict (never derived from the clock). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function buildResultsHtml({ cspSource, nonce, scriptUri, styleUri }: ResultsHtmlInput): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('the results panel needs a base64 nonce of at least 16 characters');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${attribute(nonce)}" href="${attribute(styleUri)}">
<title>API Workbench results</title>
</head>
<body>
<div id="app"></div>
<script nonce="${attribute(nonce)}" src="${attribute(scriptUri)}"></script>
</body>
</html>`;
}
