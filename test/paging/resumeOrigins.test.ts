// A resume through the one cross-origin rule (issue 29): the checkpoint holds no secret, the fresh request's
// credentials are put back — a header of any name that carries a secret held included — and only where the
// checkpoint's next request stays on the fresh request's origin. Elsewhere it goes without them, named; a
// POST with a body elsewhere is not sent at all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memorySink } from '../../src/core/export/sink';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { walk } from '../../src/core/paging/walker';
import { withoutSecrets, type WalkCheckpoint } from '../../src/core/paging/checkpoint';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { recordedResponse } from './recorded';

const TOKEN = 'tok-resume-7c6b5a49';
const fresh: HttpRequest = { method: 'GET', url: `https://api.test/items?page=1&sig=${TOKEN}`, headers: { 'X-Api-Token': TOKEN, Accept: 'application/json' } };

function guard(): SecretBindings {
  const g = new SecretBindings();
  g.bind(TOKEN, ['https://api.test'], "the token of auth 'svc'");
  return g;
}

function checkpointAt(next: HttpRequest, g: SecretBindings): WalkCheckpoint {
  return { version: 1, plan: { style: 'generic', options: { next: 'next_link', items: 'items' }, source: 'directive' }, next: withoutSecrets(next, g), pages: 1, rows: 2, bytes: 10, done: false, origin: 'https://api.test' };
}

async function resumeTo(next: HttpRequest): Promise<{ sent: HttpRequest[]; result: Awaited<ReturnType<typeof walk>>; checkpoint: WalkCheckpoint }> {
  const g = guard();
  const sent: HttpRequest[] = [];
  const send = (request: HttpRequest): Promise<HttpResponse> => {
    sent.push(request);
    return Promise.resolve(recordedResponse(200, {}, JSON.stringify({ items: [{ id: 3 }], next_link: null })));
  };
  const checkpoint = checkpointAt(next, g);
  const result = await walk(fresh, { sink: memorySink(), send, resumeFrom: checkpoint, sendOptions: { guard: g } });
  return { sent, result, checkpoint };
}

void describe('a resume and the one cross-origin rule', () => {
  void it('the checkpoint holds no header that carries a secret, whatever its name', async () => {
    const { checkpoint } = await resumeTo({ ...fresh, url: 'https://api.test/items?page=2&sig=' + TOKEN });
    assert.ok(!JSON.stringify(checkpoint).includes(TOKEN), JSON.stringify(checkpoint));
    assert.equal(checkpoint.next?.url, 'https://api.test/items?page=2&sig=');
  });

  void it('on the same origin the fresh credentials are put back, the unlisted header and query value included', async () => {
    const { sent, result } = await resumeTo({ ...fresh, url: 'https://api.test/items?page=2&sig=' + TOKEN });
    assert.equal(result.verdict, 'complete');
    assert.equal(sent[0]?.headers['X-Api-Token'], TOKEN);
    assert.equal(sent[0]?.url, `https://api.test/items?page=2&sig=${TOKEN}`);
    assert.deepEqual(result.notices, []);
  });

  void it('on another origin it goes without them, and the notice names what was dropped', async () => {
    const { sent, result } = await resumeTo({ ...fresh, url: 'https://cdn.other.test/items?page=2' });
    assert.equal(result.verdict, 'complete');
    assert.deepEqual(sent[0]?.headers, { Accept: 'application/json' });
    assert.ok(!JSON.stringify(sent).includes(TOKEN));
    assert.match(result.notices.join(' '), /the walk resumes on another origin \(https:\/\/cdn\.other\.test\) than the request's \(https:\/\/api\.test\): sent without header X-Api-Token/);
  });

  void it('a POST with a body to another origin is not sent: the walk fails, naming why', async () => {
    const { sent, result } = await resumeTo({ method: 'POST', url: 'https://cdn.other.test/items', headers: { 'X-Api-Token': TOKEN }, body: '{"Offset":2}' });
    assert.equal(sent.length, 0);
    assert.equal(result.verdict, 'failed');
    // Refused before anything leaves: by the resume check (a GET request's checkpoint cannot send a POST)
    // or, were the methods the same, by the cross-origin rule.
    assert.match(result.message, /not resumed: the checkpoint sends POST, but the request is GET|as a POST with a body; not followed/);
    assert.equal(result.resumeAt, undefined, 'no resume is offered: it would be refused again');
  });
});
