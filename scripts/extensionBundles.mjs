// The extension's bundles, shared by scripts/build.mjs and bench/activation.ts (which must measure
// the split the VSIX ships): a thin activate() (dist/extension.js: views, commands, the Services view's
// first rows) and the workbench it loads with require() on first need (dist/workbench.js).
export function extensionBundles({ outdir, ...options }) {
  return [
    { ...options, entryPoints: ['src/extension/extension.ts'], outfile: `${outdir}/extension.js`, external: ['vscode', './workbench.js'] },
    { ...options, entryPoints: ['src/extension/workbench.ts'], outfile: `${outdir}/workbench.js`, external: ['vscode', './codegen.js', './languageClient.js'] },
    // The language client (vscode-languageclient, about 0.3 MB): loaded once the views have answered.
    { ...options, entryPoints: ['src/extension/languageClient.ts'], outfile: `${outdir}/languageClient.js`, external: ['vscode'] },
    // Generate Code's generators with httpsnippet (about 0.4 MB): required only when code is generated.
    { ...options, entryPoints: ['src/core/codegen/index.ts'], outfile: `${outdir}/codegen.js` },
  ];
}
