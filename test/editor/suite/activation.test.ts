// The extension activates inside the real editor and hands its test API over.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { activatedApi, extensionUnderTest } from './extensionUnderTest';

describe('activation', () => {
  it('runs the copy of the extension the runner asked for (the installed VSIX, not a stray build)', () => {
    const expected = process.env.APIWB_EXPECTED_EXTENSION_PATH;
    const actual = extensionUnderTest().extensionPath;
    console.log(`[editor-suite] extension under test: ${actual}`);
    if (expected) assert.equal(path.resolve(actual), path.resolve(expected));
  });

  it('activates and returns the test API, whose ready promise resolves', async () => {
    const api = await activatedApi();
    assert.equal(extensionUnderTest().isActive, true);
    assert.equal(typeof api.catalog, 'function');
    assert.ok(api.servicesTree, 'the test API exposes the services tree provider');
  });

  it('composes a catalog of the three services', async () => {
    const api = await activatedApi();
    assert.deepEqual(api.catalog().services.map((s) => s.id).sort(), ['booking', 'engagement', 'fundraising']);
  });
});
