// The one table of dynamic variables (src/core/run/dynamicVariables.ts) through the resolver, as a request
// uses them: each with its arguments (offsets, formats, ranges, lengths) against a fixed clock, and each
// malformed use an error that names the variable. Unknown and unsupported ones are refused by name;
// process-environment and .env values come back as secrets; `{{%name}}` percent-encodes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveVariables, type DynamicLookups, type VariableScope } from '../../src/core/httpfile/resolve';
import { DYNAMIC_SHAPES, DYNAMIC_VARIABLES, dynamicVariables } from '../../src/core/run/dynamicVariables';
import { addOffset, formatDate } from '../../src/core/run/dynamic/time';
import { readDotenv } from '../../src/core/run/dotenvFile';
import { createCatalog } from '../../src/core/catalog/index';
import { generateSnippet } from '../../src/core/codegen';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { devContext } from './exchangeContext';

/** 2024-02-29T13:04:05.006Z, a Thursday in a leap year. */
const NOW = Date.UTC(2024, 1, 29, 13, 4, 5, 6);
const ENV = { HOME_KEY: 'value-of-home-key', EMPTY: '' };

function scope(extra: Partial<VariableScope> = {}, lookups?: DynamicLookups): VariableScope {
  const resolver = dynamicVariables({ now: () => NOW, env: ENV });
  return {
    environment: { keyName: 'HOME_KEY', base: 'http://h' },
    dynamic: lookups ? { resolve: (name, args, given) => resolver.resolve(name, args, { ...given, ...lookups }) } : resolver,
    ...extra,
  };
}

/** The text resolved; fails the test when anything is unresolved. */
function value(text: string, lookups?: DynamicLookups): string {
  const result = resolveVariables(text, scope({}, lookups));
  assert.deepEqual(result.unresolved, [], `${text}: ${JSON.stringify(result.unresolved)}`);
  return result.text;
}

/** The words of why a text does not resolve. */
function problem(text: string, lookups?: DynamicLookups): string {
  const result = resolveVariables(text, scope({}, lookups));
  assert.equal(result.unresolved.length, 1, `${text} resolved to ${result.text}`);
  assert.equal(result.unresolved[0]!.reason, 'invalid');
  return result.unresolved[0]!.message;
}

void describe('time: $timestamp, $isoTimestamp, $datetime, $localDatetime', () => {
  void it('$timestamp is now in seconds, and an offset moves it by every unit', () => {
    const now = Math.floor(NOW / 1000);
    assert.equal(value('{{$timestamp}}'), String(now));
    assert.equal(value('{{$timestamp -1 d}}'), String(now - 86_400));
    assert.equal(value('{{$timestamp 2 h}}'), String(now + 7200));
    assert.equal(value('{{$timestamp -30 m}}'), String(now - 1800));
    assert.equal(value('{{$timestamp 10 s}}'), String(now + 10));
    assert.equal(value('{{$timestamp 1 w}}'), String(now + 604_800));
    assert.equal(value('{{$timestamp 1500 ms}}'), String(Math.floor((NOW + 1500) / 1000)));
    // Calendar units: 2024-02-29 + 1 y is 2025-02-28 (clamped), - 1 M is 2024-01-29, + 1 Q is 2024-05-29.
    assert.equal(value('{{$timestamp 1 y}}'), String(Date.UTC(2025, 1, 28, 13, 4, 5, 6) / 1000 | 0));
    assert.equal(value('{{$timestamp -1 M}}'), String(Math.floor(Date.UTC(2024, 0, 29, 13, 4, 5, 6) / 1000)));
    assert.equal(value('{{$timestamp 1 Q}}'), String(Math.floor(Date.UTC(2024, 4, 29, 13, 4, 5, 6) / 1000)));
  });

  void it('$timestamp with a malformed offset names it', () => {
    assert.match(problem('{{$timestamp -1 x}}'), /'\$timestamp': the offset '-1 x' is not '<integer> <unit>' with a unit among y Q M w d h m s ms/);
    assert.match(problem('{{$timestamp yesterday}}'), /'\$timestamp': the offset 'yesterday'/);
    assert.match(problem('{{$timestamp 1.5 d}}'), /the offset '1.5 d'/);
  });

  void it('$isoTimestamp is now in ISO 8601 UTC, and takes nothing', () => {
    assert.equal(value('{{$isoTimestamp}}'), '2024-02-29T13:04:05.006Z');
    assert.match(problem('{{$isoTimestamp 1 d}}'), /'\$isoTimestamp': it takes no arguments/);
  });

  void it('$datetime: rfc1123, iso8601, a quoted pattern, each with an offset', () => {
    assert.equal(value('{{$datetime rfc1123}}'), 'Thu, 29 Feb 2024 13:04:05 GMT');
    assert.equal(value('{{$datetime iso8601}}'), '2024-02-29T13:04:05.006Z');
    assert.equal(value('{{$datetime iso8601 1 d}}'), '2024-03-01T13:04:05.006Z');
    assert.equal(value('{{$datetime "DD-MM-YYYY" -1 y}}'), '28-02-2023');
    assert.equal(value("{{$datetime 'YYYY-MM-DDTHH:mm:ss.SSS [at] dddd, MMM D, h A' 3 h}}"), '2024-02-29T16:04:05.006 at Thursday, Feb 29, 4 PM');
    assert.equal(value('{{$datetime "X x YY M MMMM ddd dd d H hh m s a Z ZZ"}}'), `${Math.floor(NOW / 1000)} ${NOW} 24 2 February Thu Th 4 13 01 4 5 pm +00:00 +0000`);
  });

  void it('$datetime without a format, or with a bad one or a bad offset, names it', () => {
    assert.match(problem('{{$datetime}}'), /'\$datetime': it takes rfc1123, iso8601 or a "quoted pattern"/);
    assert.match(problem('{{$datetime rfc822}}'), /'\$datetime': it takes rfc1123/);
    assert.match(problem('{{$datetime iso8601 1 fortnight}}'), /'\$datetime': the offset '1 fortnight'/);
  });

  void it("$localDatetime is the machine's time zone: the same instant as $datetime, with its offset written", () => {
    const local = value('{{$localDatetime iso8601}}');
    assert.match(local, /^2024-\d\d-\d\dT\d\d:\d\d:05[+-]\d\d:\d\d$/);
    assert.equal(Date.parse(local), Math.floor(NOW / 1000) * 1000, 'the same instant');
    assert.match(value('{{$localDatetime rfc1123 -2 d}}'), /^\w{3}, \d\d \w{3} 2024 \d\d:\d\d:05 [+-]\d{4}$/);
    assert.equal(value('{{$localDatetime "YYYY"}}'), String(new Date(NOW).getFullYear()));
    assert.match(problem('{{$localDatetime 5 d}}'), /'\$localDatetime': it takes rfc1123/);
  });

  void it('month offsets clamp to the month end in local time too; formatDate passes unknown letters and [text] through', () => {
    const jan31 = new Date(2024, 0, 31, 12, 0, 0).getTime();
    assert.equal(new Date(addOffset(jan31, { amount: 1, unit: 'M' }, true)).getDate(), 29);
    assert.equal(formatDate(NOW, '[YYYY] YYYY Q', false), 'YYYY 2024 Q');
  });
});

void describe('random values', () => {
  void it('$guid, $uuid, $random.uuid: a v4 UUID, a new one each time', () => {
    for (const name of ['$guid', '$uuid', '$random.uuid']) {
      const a = value(`{{${name}}}`);
      assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.notEqual(value(`{{${name}}}`), a);
    }
    assert.match(problem('{{$guid 4}}'), /'\$guid': it takes no arguments/);
  });

  void it('$randomInt: [min, max), [0, 1000) without arguments; min 0 max 1 is always 0', () => {
    for (let i = 0; i < 200; i++) {
      const n = Number(value('{{$randomInt -5 5}}'));
      assert.ok(Number.isInteger(n) && n >= -5 && n < 5, String(n));
      const d = Number(value('{{$randomInt}}'));
      assert.ok(Number.isInteger(d) && d >= 0 && d < 1000, String(d));
    }
    assert.equal(value('{{$randomInt 0 1}}'), '0');
  });

  void it('$randomInt with one argument, words, or max <= min names it', () => {
    assert.match(problem('{{$randomInt 5}}'), /'\$randomInt': it takes two integers, min and max \(found '5'\)/);
    assert.match(problem('{{$randomInt a b}}'), /two integers/);
    assert.match(problem('{{$randomInt 5 5}}'), /max \(5\) must be greater than min \(5\)/);
    assert.match(problem('{{$randomInt 1.5 3}}'), /two integers/);
  });

  void it('$random.integer(from, to) and $random.float(from, to) stay in range', () => {
    for (let i = 0; i < 200; i++) {
      const n = Number(value('{{$random.integer(10, 20)}}'));
      assert.ok(Number.isInteger(n) && n >= 10 && n < 20, String(n));
      const f = Number(value('{{$random.float(0.5, 1.5)}}'));
      assert.ok(f >= 0.5 && f < 1.5, String(f));
    }
  });

  void it('$random.integer and $random.float without parentheses, with one number or a reversed range name it', () => {
    assert.match(problem('{{$random.integer}}'), /'\$random.integer': it is written with \(from, to\) in parentheses \(found 'nothing'\)/);
    assert.match(problem('{{$random.integer(5)}}'), /\(from, to\)/);
    assert.match(problem('{{$random.float(2, 1)}}'), /'to' \(1\) must be greater than 'from' \(2\)/);
    assert.match(problem('{{$random.integer(0.5, 3)}}'), /from and to are integers/);
  });

  void it('$random.alphabetic, .alphanumeric, .hexadecimal(n): n characters of their alphabet; 0 is empty', () => {
    assert.match(value('{{$random.alphabetic(40)}}'), /^[a-zA-Z]{40}$/);
    assert.match(value('{{$random.alphanumeric(40)}}'), /^[a-zA-Z0-9]{40}$/);
    assert.match(value('{{$random.hexadecimal(40)}}'), /^[0-9a-f]{40}$/);
    assert.equal(value('{{$random.hexadecimal(0)}}'), '');
  });

  void it('a length that is negative, fractional, too large or missing names it', () => {
    assert.match(problem('{{$random.alphabetic(-1)}}'), /'\$random.alphabetic': it is written with \(length\)|the length is an integer from 0 to 10000 \(found -1\)/);
    assert.match(problem('{{$random.alphanumeric(2.5)}}'), /the length is an integer from 0 to 10000 \(found 2.5\)/);
    assert.match(problem('{{$random.hexadecimal(10001)}}'), /found 10001/);
    assert.match(problem('{{$random.hexadecimal()}}'), /\(length\) in parentheses/);
  });

  void it('$random.email and the faker families give text of their kind', () => {
    assert.match(value('{{$random.email}}'), /^[a-z]{8}@example\.(com|org|net)$/);
    assert.match(value('{{$random.name.firstName}}'), /^[A-Z][a-z]+$/);
    assert.match(value('{{$random.name.fullName}}'), /^[A-Z][a-z]+ [A-Z][a-z]+$/);
    assert.match(value('{{$random.address.zipCode}}'), /^\d{5}$/);
    assert.match(value('{{$random.internet.ipV4Address}}'), /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(value('{{$random.bool.bool}}'), /^(true|false)$/);
    for (const v of DYNAMIC_VARIABLES.filter((d) => d.name.split('.').length === 3)) assert.notEqual(value(`{{${v.name}}}`), '', v.name);
  });

  void it('a faker method the table does not have is refused by name, never empty', () => {
    assert.match(problem('{{$random.name.nickname}}'), /'\$random.name.nickname' is not a dynamic variable this product knows/);
    assert.match(problem('{{$random.beer.name}}'), /'\$random.beer.name' is not a dynamic variable/);
  });
});

void describe('the process environment and .env files', () => {
  const dotenv: DynamicLookups = { dotenv: { file: '.env', values: { DOT_KEY: 'from-dotenv', HOME_KEY: 'dotenv-home' } } };

  void it('$processEnv NAME and $env.NAME give the value as a secret; % reads the name from the environment', () => {
    assert.equal(value('{{$processEnv HOME_KEY}}'), 'value-of-home-key');
    assert.equal(value('{{$processEnv %keyName}}'), 'value-of-home-key');
    assert.equal(value('{{$env.HOME_KEY}}'), 'value-of-home-key');
    assert.equal(value('[{{$processEnv EMPTY}}]'), '[]', 'a variable set to empty is empty, not missing');
    const resolver = dynamicVariables({ env: ENV });
    assert.deepEqual(resolver.resolve('$processEnv', 'HOME_KEY'), { value: 'value-of-home-key', secret: 'the value of {{$processEnv HOME_KEY}}' });
    assert.deepEqual(resolver.resolve('$env.HOME_KEY', ''), { value: 'value-of-home-key', secret: 'the value of {{$env.HOME_KEY}}' });
  });

  void it('a missing variable, a missing % name, a malformed use name it; never empty', () => {
    assert.match(problem('{{$processEnv NOT_SET}}'), /'\$processEnv': the process environment has no variable NOT_SET/);
    assert.match(problem('{{$env.NOT_SET}}'), /'\$env.NOT_SET': the process environment has no variable NOT_SET/);
    assert.match(problem('{{$processEnv %nowhere}}'), /%nowhere names the variable 'nowhere', which is not defined/);
    assert.match(problem('{{$processEnv}}'), /'\$processEnv': it takes one name, optionally after % \(found 'nothing'\)/);
    assert.match(problem('{{$processEnv A B}}'), /it takes one name/);
  });

  void it('refused (an untrusted workspace): the words say so, and there is nothing to read', () => {
    const resolver = dynamicVariables({ env: { refused: 'not read: this workspace is in Restricted Mode' } });
    assert.deepEqual(resolver.resolve('$processEnv', 'HOME_KEY'), { problem: "'$processEnv': not read: this workspace is in Restricted Mode" });
    assert.deepEqual(resolver.resolve('$env.HOME_KEY', ''), { problem: "'$env.HOME_KEY': not read: this workspace is in Restricted Mode" });
  });

  void it('$dotenv NAME (and %NAME) from the request\'s .env file, as a secret; a missing name or file names it', () => {
    assert.equal(value('{{$dotenv DOT_KEY}}', dotenv), 'from-dotenv');
    assert.equal(value('{{$dotenv %keyName}}', dotenv), 'dotenv-home');
    assert.deepEqual(dynamicVariables().resolve('$dotenv', 'DOT_KEY', dotenv), { value: 'from-dotenv', secret: 'the value of {{$dotenv DOT_KEY}}' });
    assert.match(problem('{{$dotenv NOPE}}', dotenv), /'\$dotenv': .env has no variable NOPE/);
    assert.match(problem('{{$dotenv DOT_KEY}}', { dotenv: { problem: 'there is no .env.local or .env beside the .http file' } }), /there is no .env.local or .env beside the .http file/);
  });
});

void describe('unknown and unsupported variables, and the check before a run', () => {
  void it('an unknown name and an unsupported one are refused by name', () => {
    assert.match(problem('{{$nosuch}}'), /'\$nosuch' is not a dynamic variable this product knows/);
    assert.match(problem('{{$aadToken}}'), /'\$aadToken' is not supported: it asks something of the user or an identity provider/);
    assert.match(problem('{{$aadV2Token appOnly}}'), /'\$aadV2Token' is not supported/);
    assert.match(problem('{{$input Your name}}'), /'\$input' is not supported/);
  });

  void it('the check reads every use without making a value: malformed uses fail, good ones and $auth pass', () => {
    assert.equal(DYNAMIC_SHAPES.resolve('$timestamp', '-1 d'), 'x');
    assert.equal(DYNAMIC_SHAPES.resolve('$auth.token', '("x")'), 'x');
    assert.equal(DYNAMIC_SHAPES.resolve('$processEnv', 'NOT_SET_ANYWHERE'), 'x', 'the value is not read before the run');
    assert.deepEqual(DYNAMIC_SHAPES.resolve('$randomInt', '3'), { problem: "'$randomInt': it takes two integers, min and max (found '3')" });
    assert.deepEqual(DYNAMIC_SHAPES.resolve('$what', ''), { problem: "'$what' is not a dynamic variable this product knows (the completion after {{$ lists them)" });
  });

  void it('every entry of the table either makes a value or says why not', () => {
    for (const v of DYNAMIC_VARIABLES) assert.ok(v.parse !== undefined || (v.unsupported ?? '') !== '', v.name);
  });
});

void describe('{{%name}}: a variable percent-encoded (REST Client)', () => {
  void it('encodes file and environment variables; an undefined one stays reported', () => {
    const s = scope({ fileVariables: { q: 'a b&c/é' } });
    assert.equal(resolveVariables('/search?q={{%q}}&u={{%base}}', s).text, '/search?q=a%20b%26c%2F%C3%A9&u=http%3A%2F%2Fh');
    const missing = resolveVariables('{{%nope}}', s);
    assert.equal(missing.unresolved[0]?.reason, 'undefined');
  });
});

void describe('the .env file of a request', () => {
  const reader = (files: Record<string, string>, fault?: Error) => (path: string): Promise<string> => {
    if (fault) return Promise.reject(fault);
    return path in files ? Promise.resolve(files[path]!) : Promise.reject(Object.assign(new Error(`ENOENT: no such file ${path}`), { code: 'ENOENT' }));
  };

  void it('.env.<environment> first, else .env; parsed as dotenv parses (quotes, comments)', async () => {
    assert.deepEqual(await readDotenv(reader({ './.env.prod': 'A=1', './.env': 'A=2' }), 'prod'), { file: '.env.prod', values: { A: '1' } });
    assert.deepEqual(await readDotenv(reader({ './.env': '# c\nA="two words" # note\nB=\'x\'' }), 'prod'), { file: '.env', values: { A: 'two words', B: 'x' } });
  });

  void it('none there, or a read refused (Restricted Mode): the words say so', async () => {
    assert.deepEqual(await readDotenv(reader({}), 'dev'), { problem: 'there is no .env.dev or .env beside the .http file' });
    assert.deepEqual(await readDotenv(reader({}, new Error('< ./.env.dev: not read: this workspace is in Restricted Mode')), 'dev'), { problem: '.env.dev: < ./.env.dev: not read: this workspace is in Restricted Mode' });
  });
});

void describe('generated code never carries a process-environment or .env value', () => {
  const environment = devContext('http://127.0.0.1:9').environment;
  const input = (text: string, files: Record<string, string> = {}) => ({
    file: parseHttpFile(text), requestIndex: 0, environment, allEnvironments: [environment], catalog: createCatalog([]), knownSecrets: [],
    readInclude: (path: string) => (path in files ? Promise.resolve(files[path]!) : Promise.reject(Object.assign(new Error(`ENOENT ${path}`), { code: 'ENOENT' }))),
  });

  void it('$processEnv and $env.X are not even read; $dotenv is refused by name', async () => {
    process.env.APIWB_CODEGEN_PROBE = 'codegen-probe-value';
    try {
      await assert.rejects(generateSnippet(input('GET {{base}}/x\nX-Key: {{$processEnv APIWB_CODEGEN_PROBE}}\n'), 'curl'), /'\$processEnv': generated code never carries a secret, and a value of the process environment is one: nothing was read/);
      await assert.rejects(generateSnippet(input('GET {{base}}/x\nX-Key: {{$env.APIWB_CODEGEN_PROBE}}\n'), 'curl'), /'\$env.APIWB_CODEGEN_PROBE': generated code never carries a secret/);
    } finally {
      delete process.env.APIWB_CODEGEN_PROBE;
    }
    await assert.rejects(generateSnippet(input('GET {{base}}/x\nX-Key: {{$dotenv K}}\n', { './.env': 'K=dotenv-codegen-value' }), 'curl'), /the value of \{\{\$dotenv K\}\} is a secret of the process environment or a \.env file; generated code never carries a secret/);
    const plain = await generateSnippet(input('GET {{base}}/x?at={{$timestamp -1 d}}\n'), 'curl');
    assert.match(plain.code, /at=\d{10}/);
  });
});
