// `apiwb run`'s plan: which responses a later request reads by name (their bodies are kept, not streamed),
// computed once for the run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { readLaterFlags } from '../../src/cli/runPlan';

const flagsOf = (...texts: string[]): boolean[] => {
  const files = texts.map(parseHttpFile);
  return readLaterFlags(files.flatMap((f) => f.requests), files.flatMap((f) => f.blocks.flatMap((b) => b.variables)));
};

void describe('readLaterFlags', () => {
  void it('a response read by a later request of the same file, and only by a later one', () => {
    assert.deepEqual(flagsOf([
      '# @name login', 'POST http://x/token', '',
      '###', '# @name list', 'GET http://x/list', 'Authorization: Bearer {{login.response.body.$.access_token}}', '',
      '###', '# @name unread', 'GET http://x/other?first={{list.response.headers.X-Next}}', '',
      '###', '# @name last', 'GET http://x/last?self={{last.response.body.$.id}}', '',
    ].join('\n')), [true, true, false, false]);
  });

  void it('across files of the run (named responses are shared by the run), and through a file variable', () => {
    assert.deepEqual(flagsOf(
      ['# @name first', 'GET http://x/a', '', '###', '# @name second', 'GET http://x/b', ''].join('\n'),
      ['@next = {{second.response.body.$.next}}', 'GET http://x/c?after={{first.response.body.$.id}}', ''].join('\n'),
    ), [true, true, false]);
  });

  void it('names that are prefixes of others, unnamed requests, and a request with no references', () => {
    assert.deepEqual(flagsOf([
      '# @name page', 'GET http://x/1', '',
      '###', '# @name pages', 'GET http://x/2', '',
      '###', 'GET http://x/3?n={{pages.response.body.$.n}}', '',
      '###', 'GET http://x/4', '',
    ].join('\n')), [false, true, false, false]);
  });

  void it('a thousand requests each read by the next: every one but the last', () => {
    const text = Array.from({ length: 1000 }, (_, n) => `### r${n}\n# @name r${n}\nGET http://x/${n}${n > 0 ? `?p={{r${n - 1}.response.body.$.id}}` : ''}\n`).join('\n');
    const flags = flagsOf(text);
    assert.equal(flags.length, 1000);
    assert.deepEqual([flags.filter(Boolean).length, flags[999]], [999, false]);
  });
});
