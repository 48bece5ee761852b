// After the editor and UI runs: every file the product could have written (the test workspace with its
// apiwb-results/, the user-data dir with logs, globalStorage and workspaceStorage, the extensions dir) and
// the harness's own logs are searched for the sandbox's secrets — as written, URL-encoded, as the base64
// Basic credential, and in UTF-16 (how some stores keep text). Findings name the file and WHICH secret
// (a label), never the value. SecretStorage itself lives in the browser's localStorage in code-server.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Hashes of the files under `dir` as they are now (taken right after the VSIX install): a file still equal
 * to its installed bytes was written by the installer from the package, not by the product at run time.
 * The package itself may hold the sandbox's fixed demo passwords (dist/cli.js embeds the sandbox).
 * @returns {Promise<Record<string, string>>} path → sha256
 */
export async function snapshotFiles(dir) {
  const hashes = {};
  for await (const file of filesUnder(dir)) hashes[file] = sha256(await readFile(file));
  return hashes;
}

/**
 * The sandbox's secrets with labels: passwords, service keys (alone and inside the Basic credential), the JWT.
 * @returns {{ label: string, value: string }[]}
 */
export function sandboxSecretNeedles(descriptor) {
  const { engagement, fundraising } = descriptor.credentials;
  const needles = [
    ['engagement password', engagement.password],
    ['restricted user password', engagement.restrictedUser?.password],
    ['locked user password', engagement.lockedUser?.password],
    ['fundraising JWT', fundraising.jwt?.token],
  ];
  for (const [name, record] of Object.entries({ fullAccess: fundraising.fullAccess, readOnly: fundraising.readOnly, ipRestricted: fundraising.ipRestricted })) {
    if (!record?.serviceKey) continue;
    needles.push([`${name} service key`, record.serviceKey]);
    needles.push([`${name} Basic credential`, Buffer.from(`${record.permissionName}:${record.serviceKey}`).toString('base64')]);
  }
  return withEncodings(needles.filter(([, value]) => typeof value === 'string' && value.length >= 6));
}

/** Adds the URL-encoded form of each value where it differs (form bodies, query strings). */
function withEncodings(pairs) {
  const out = [];
  for (const [label, value] of pairs) {
    out.push({ label, value });
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out.push({ label: `${label} (URL-encoded)`, value: encoded });
  }
  return out;
}

/** Every regular file under `dir` (symbolic links are not followed). */
async function* filesUnder(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * @param {{ dirs: string[], needles: { label: string, value: string }[], installed?: Record<string, string> }} options
 *   `installed`: files to skip while unchanged since installation (see snapshotFiles).
 * @returns {Promise<{ files: number, skipped: number, searched: string[], findings: { file: string, label: string }[] }>}
 */
export async function scanForSecrets({ dirs, needles, installed = {} }) {
  const patterns = needles.flatMap(({ label, value }) => [
    { label, bytes: Buffer.from(value, 'utf8') },
    { label: `${label} (UTF-16)`, bytes: Buffer.from(value, 'utf16le') },
  ]);
  const findings = [];
  const searched = [];
  let files = 0;
  let skipped = 0;
  for (const dir of dirs) {
    for await (const file of filesUnder(dir)) {
      files += 1;
      searched.push(file);
      let content;
      try {
        content = await readFile(file);
      } catch {
        continue; // removed while we walked (a log rotated)
      }
      if (installed[file] !== undefined && installed[file] === sha256(content)) {
        skipped += 1;
        continue;
      }
      for (const { label, bytes } of patterns) if (content.includes(bytes)) findings.push({ file, label });
    }
  }
  return { files, skipped, searched, findings };
}

/** The scan as one test result for printResults(): failed with the file names (and which secret) when found. */
export async function secretScanResult({ dirs, needles, installed, title = 'secrets: no secret in any file the product wrote' }) {
  const started = Date.now();
  if (needles.length === 0) return { title, state: 'failed', durationMs: 0, error: 'no secret to look for: the sandbox did not start' };
  const { files, skipped, findings } = await scanForSecrets({ dirs, needles, installed });
  const durationMs = Date.now() - started;
  if (findings.length === 0) return { title: `${title} (${files - skipped} files searched, ${skipped} unchanged as installed from the VSIX, ${needles.length} secret forms)`, state: 'passed', durationMs };
  const lines = findings.map((f) => `${f.file}: ${f.label}`);
  return { title, state: 'failed', durationMs, error: `secrets found in ${findings.length} place(s):\n${lines.join('\n')}` };
}
