// The hover and completion of dynamic variables say what the one table says (src/core/run/dynamicVariables.ts):
// what works with its arguments, what is not supported and why, and what is wrong with a use as written.
// They never say a variable works that the resolver refuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveVariables } from '../../src/core/httpfile/resolve';
import { DYNAMIC_VARIABLES, dynamicVariables } from '../../src/core/run/dynamicVariables';
import { completions, diagnostics, hoverText } from './languageServiceFixture';

const at = (reference: string): string => `GET https://h/x?a={{${reference}}}\n`;

void describe('hover on a dynamic variable', () => {
  void it('a supported one: how it is written, what it gives, the tools', () => {
    const text = hoverText(at('$time|stamp -1 d'));
    assert.match(text, /`\{\{\$timestamp \[offset unit\]\}\}`: the Unix time in seconds, now or moved by an offset such as -1 d/);
    assert.match(text, /REST Client, httpYac, JetBrains/);
    assert.doesNotMatch(text, /Not resolved/);
    assert.match(hoverText(at('$random.inte|ger(1, 5)')), /random integer in \[from, to\) \(JetBrains\)/);
    assert.match(hoverText(at('$env.HO|ME')), /process environment variable NAME; a secret, sent only to the environment's origins/);
  });

  void it('a malformed use says what is wrong, in the resolver\'s words', () => {
    assert.match(hoverText(at('$time|stamp -1 x')), /\*\*Not resolved as written\*\*: '\$timestamp': the offset '-1 x' is not '<integer> <unit>'/);
    assert.match(hoverText(at('$random|Int 5')), /\*\*Not resolved as written\*\*: '\$randomInt': it takes two integers/);
  });

  void it('an unsupported one says it is not supported and why; an unknown one that the request is not sent', () => {
    assert.match(hoverText(at('$aad|Token')), /`\{\{\$aadToken\}\}` \(REST Client\) is not supported: it asks something of the user or an identity provider/);
    assert.match(hoverText(at('$nosu|ch')), /`\$nosuch` is not a dynamic variable this product knows: the request is not sent while it is there/);
  });

  void it('every hover that does not say "not" is of a use the resolver makes', () => {
    const resolver = dynamicVariables({ env: { X: 'y' } });
    for (const v of DYNAMIC_VARIABLES) {
      const text = hoverText(at(`${v.name.slice(0, 2)}|${v.name.slice(2)}`));
      const works = !/not supported|not a dynamic variable|Not resolved/.test(text);
      const used = v.name === '$env.NAME' ? '$env.X' : v.name;
      const resolved = resolveVariables(`{{${used}}}`, { dynamic: resolver, environment: {} });
      // A variable whose arguments are required (e.g. $datetime) is refused bare: the hover says so too.
      assert.equal(works, resolved.unresolved.length === 0, `${v.name}: hover "${text}" vs ${JSON.stringify(resolved.unresolved)}`);
    }
  });
});

void describe('completion of dynamic variables', () => {
  void it('lists the table\'s supported variables with its words and snippets, none it refuses', () => {
    const items = completions('GET https://h/x?a={{$|\n');
    const labels = items.map((i) => i.label);
    for (const name of ['$auth.token', '$guid', '$timestamp', '$datetime', '$localDatetime', '$randomInt', '$processEnv', '$dotenv', '$env.NAME', '$random.integer', '$random.alphabetic', '$random.name.firstName']) assert.ok(labels.includes(name), name);
    for (const refused of ['$aadToken', '$input', '$exampleServer']) assert.ok(!labels.includes(refused), refused);
    const datetime = items.find((i) => i.label === '$datetime');
    const documentation = datetime?.documentation;
    assert.match(typeof documentation === 'string' ? documentation : documentation?.value ?? '', /UTC, in RFC 1123, ISO 8601 or a Day.js pattern/);
    assert.match(datetime?.textEdit && 'newText' in datetime.textEdit ? datetime.textEdit.newText : '', /^\\\$datetime \$\{1\|iso8601,rfc1123,"YYYY-MM-DD"\|\}\}\}$/);
  });
});

void describe('{{%name}} in diagnostics', () => {
  void it('is the variable name: defined, no warning; undefined, the usual one', () => {
    assert.deepEqual(diagnostics('GET https://h/x?q={{%ctcID}}\n').filter((d) => d.code === 'undefined-variable'), []);
    assert.match(diagnostics('GET https://h/x?q={{%nope}}\n').find((d) => d.code === 'undefined-variable')?.message ?? '', /'nope' is not defined/);
  });
});

void describe('diagnostics of dynamic variables', () => {
  void it('warns where a use would stop the send, in the resolver\'s words; good uses and $auth pass', () => {
    const found = diagnostics('GET https://h/x?a={{$timestamp -1 x}}&b={{$nosuch}}&c={{$timestamp -1 d}}&d={{$random.integer(1, 5)}}\nAuthorization: Bearer {{$auth.token("engagement")}}\nX-A: {{$aadToken}}\n')
      .filter((d) => d.code === 'dynamic-variable');
    assert.deepEqual(found.map((d) => d.message), [
      "{{$timestamp -1 x}}: '$timestamp': the offset '-1 x' is not '<integer> <unit>' with a unit among y Q M w d h m s ms (e.g. -1 d); the request is not sent while it is so.",
      "{{$nosuch}}: '$nosuch' is not a dynamic variable this product knows (the completion after {{$ lists them); the request is not sent while it is so.",
      "{{$aadToken}}: '$aadToken' is not supported: it asks something of the user or an identity provider this product does not talk to; use an auth entry of the env file ({{$auth.token(\"id\")}}); the request is not sent while it is so.",
    ]);
    assert.deepEqual(found[0]?.range, { start: { line: 0, character: 20 }, end: { line: 0, character: 35 } });
  });
});
