// This user's key file (src/cli/userKeyFile.ts), which signs the code cache and the resume records: in the
// per-user config folder of each platform, never the cache folder, under the name it had when only the code
// cache used it (a key made then still signs both).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeCacheDir } from '../../src/cli/codeCache';
import { userKeyFile } from '../../src/cli/userKeyFile';

void describe('this user\'s key file', () => {
  const home = (): string => '/home/u';

  void it('lives in the per-user config folder of each platform, as code-cache.key', () => {
    assert.equal(userKeyFile({ XDG_CONFIG_HOME: '/xdg' }, 'linux', home), join('/xdg', 'apiwb', 'code-cache.key'));
    assert.equal(userKeyFile({}, 'linux', home), join('/home/u', '.config', 'apiwb', 'code-cache.key'));
    assert.equal(userKeyFile({}, 'darwin', home), join('/home/u', 'Library', 'Application Support', 'apiwb', 'code-cache.key'));
    assert.equal(userKeyFile({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', home), join('C:\\Users\\u\\AppData\\Roaming', 'apiwb', 'code-cache.key'));
  });

  void it('none where there is no absolute config folder', () => {
    assert.equal(userKeyFile({}, 'win32', home), undefined);
    assert.equal(userKeyFile({ APPDATA: 'AppData\\Roaming' }, 'win32', home), undefined);
    assert.equal(userKeyFile({ XDG_CONFIG_HOME: 'config' }, 'linux', home), join('/home/u', '.config', 'apiwb', 'code-cache.key'), 'the XDG spec: a relative path is ignored');
    assert.equal(userKeyFile({}, 'linux', () => 'relative-home'), undefined);
    assert.equal(userKeyFile({}, 'linux', () => { throw new Error('no home'); }), undefined);
  });

  void it('is never inside the code cache folder', () => {
    for (const platform of ['linux', 'darwin']) {
      const cache = codeCacheDir({}, platform, home)!;
      assert.ok(!userKeyFile({}, platform, home)!.startsWith(cache), platform);
    }
  });
});
