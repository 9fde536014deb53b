import { baseTypeFor } from '../../src/query-engine/execute/drivers/base-types';
import { convertsToNamedZone } from '../../src/query-engine/execute/drivers/mysql.driver';
import { scanSql } from '../../src/query-engine/execute/drivers/sql-scan';
import { checkStatement } from '../../src/query-engine/execute/drivers/statement-policy';
import { validateDetails } from '../../src/query-engine/execute/drivers/details';
import type { Engine } from '../../src/query-engine/execute/drivers/driver';
import { findSnippetTags, parseNativeQuery, parseTagName, referencedTags } from '../../src/query-engine/native/parse';
import { substituteNative } from '../../src/query-engine/native/substitute';
import { parseNumber } from '../../src/query-engine/parameters/to-filter';
import { trimTrailingSemicolons } from '../../src/query-engine/sql-text';

/**
 * Everything that reads user SQL or user text must take time linear in its length: each parser gets ~100 kB of the
 * input that makes a backtracking regular expression retry from every position. A quadratic pattern takes 7-9 s of CPU
 * on such an input (`/\s+$/` on 100 kB of spaces and an `x`: 7.2 s here), a linear parser 1-20 ms on a quiet machine and
 * up to ~170 ms on a loaded CI machine; the bound sits between the two with room on both sides, so a slow machine never
 * fails it and a backtracking pattern always does.
 */
const KB100 = 100_000;
const LIMIT_MS = 1_000;
const spaces = ' '.repeat(KB100);

/**
 * Milliseconds of CPU `fn(input)` takes (what it throws is ignored: refusing the input is fine, taking long is not):
 * the best of three runs, after one on a tenth of the input so that compiling the code is not what is measured.
 * CPU time rather than wall-clock time, so that other processes on a busy machine do not count; a backtracking
 * pattern takes seconds of CPU on these inputs.
 */
function timed<T>(fn: (input: T) => unknown, input: T, smaller?: T): number {
  const run = (x: T) => {
    try {
      fn(x);
    } catch {
      // refused: fine
    }
  };
  run(smaller ?? tenth(input));
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const started = process.cpuUsage();
    run(input);
    best = Math.min(best, cpuMs(started));
  }
  return best;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function tenth<T>(input: T): T {
  return (typeof input === 'string' ? input.slice(0, Math.ceil(input.length / 10)) : input) as T;
}

async function timedAsync(fn: () => Promise<unknown>): Promise<number> {
  await fn().catch(() => undefined);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const started = process.cpuUsage();
    await fn().catch(() => undefined);
    best = Math.min(best, cpuMs(started));
  }
  return best;
}

const repeatTo = (unit: string) => unit.repeat(Math.ceil(KB100 / unit.length));

describe('parsers on 100 kB adversarial input', () => {
  const snippetInputs: Record<string, string> = {
    'an unclosed snippet tag and spaces': `{{snippet:${spaces}`,
    'spaces inside a snippet tag, then a brace': `{{ snippet:${spaces}x{}}`,
    'many openings': repeatTo('{{'),
    'many unclosed snippet tags': repeatTo('{{snippet: a '),
    'many tags with a brace inside': repeatTo('{{snippet: a{ }}'),
  };

  it.each(Object.entries(snippetInputs))('finds snippet tags in linear time: %s', (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(KB100);
    expect(timed(findSnippetTags, text)).toBeLessThan(LIMIT_MS);
    expect(timed(parseNativeQuery, text)).toBeLessThan(LIMIT_MS);
    expect(timed(referencedTags, text)).toBeLessThan(LIMIT_MS);
  });

  it('substitutes a native query with an unclosed snippet tag and 100 kB of spaces quickly (21 s for 4,000 spaces before)', async () => {
    const native = { query: `SELECT 1 {{snippet:${spaces}`, 'template-tags': {} };
    const content = { card: async () => null, segment: async () => null, metric: async () => null, snippet: async () => null };
    await expect(substituteNative(native, [], { content })).rejects.toThrow(/no matching/);
    expect(await timedAsync(() => substituteNative(native, [], { content }))).toBeLessThan(LIMIT_MS);
  });

  it('reads tag names in linear time', () => {
    for (const name of [`snippet:${spaces}x`, `snippet: a${spaces}b`, `#1${'-'.repeat(KB100)}!`, `${'a'.repeat(KB100)}!`]) {
      expect(timed(parseTagName, name)).toBeLessThan(LIMIT_MS);
    }
  });

  it('trims trailing semicolons of a saved question used as a source in linear time', () => {
    for (const sql of [`SELECT 1${repeatTo(' ;')}x`, `SELECT 1${spaces};${spaces}`]) {
      expect(timed(trimTrailingSemicolons, sql)).toBeLessThan(LIMIT_MS);
    }
  });

  it('looks for CONVERT_TZ to a named zone in linear time', () => {
    for (const sql of [repeatTo('CONVERT_TZ('), repeatTo("CONVERT_TZ(, '+00:00', 'a"), `CONVERT_TZ(${repeatTo(", '+00:00', 'a")}`]) {
      expect(timed(convertsToNamedZone, sql)).toBeLessThan(LIMIT_MS);
    }
  });

  it('reads number parameters in linear time', () => {
    for (const text of [
      `${'1'.repeat(KB100)}x`,
      `1${spaces}x`,
      `${'1'.repeat(KB100 / 2)}${' '.repeat(KB100 / 2)}x`,
      `.${'1'.repeat(KB100)}e`,
    ]) {
      expect(timed(parseNumber, text)).toBeLessThan(LIMIT_MS);
    }
  });

  it('reads a warehouse CA certificate (ssl-root-cert, up to 64 kB) in linear time', () => {
    // Many certificates with whitespace between them and a bad end: each gap could be split two ways per repetition.
    const cert = '-----BEGIN CERTIFICATE-----\nA-----END CERTIFICATE-----';
    const inputs = [
      `${(cert + ' '.repeat(10)).repeat(1000).slice(0, 60_000)}!`,
      `${(cert + '\n'.repeat(40)).repeat(600).slice(0, 60_000)}!`,
    ];
    const details = (pem: string) =>
      validateDetails('postgres', { host: 'db', dbname: 'd', user: 'u', ssl: true, 'ssl-root-cert': pem }, { dataDir: '/tmp' });
    for (const pem of inputs) expect(timed(details, pem)).toBeLessThan(LIMIT_MS);
  });

  it('reads type names (which may carry user text, e.g. DuckDB STRUCT fields) in linear time', () => {
    for (const engine of ['postgres', 'mysql', 'duckdb'] as Engine[]) {
      expect(timed((t: string) => baseTypeFor(engine, t), repeatTo('('))).toBeLessThan(LIMIT_MS);
    }
  });

  const sqlInputs: Record<string, string> = {
    'spaces before a parenthesis': `x${spaces}(`,
    parentheses: repeatTo('('),
    'words and parentheses': repeatTo('a ('),
    'quoted names': repeatTo('"a"('),
    'unicode names with escapes': `U&"${repeatTo('\\0061')}"(`,
    'unicode names followed by spaces': `U&"a"${spaces}UESCAPE '!' (`,
    'INTO and spaces': repeatTo('INTO '),
    comments: repeatTo('/*/*'),
    semicolons: repeatTo(' ;'),
  };

  it.each(Object.entries(sqlInputs))('scans and checks SQL in linear time: %s', (_name, sql) => {
    for (const engine of ['postgres', 'mysql', 'sqlite', 'duckdb'] as Engine[]) {
      expect(timed((x: string) => scanSql(x, engine), sql)).toBeLessThan(LIMIT_MS);
      expect(timed((x: string) => checkStatement(engine, x, true), sql)).toBeLessThan(LIMIT_MS);
    }
  });
});

describe('findSnippetTags', () => {
  /** The regular expression it replaces, for the cases where that one is quick. */
  const byRegex = (text: string) =>
    [...text.matchAll(/\{\{\s*snippet:\s*([^{}]*?)\s*\}\}/g)].map((m) => ({ index: m.index, length: m[0].length }));

  it.each([
    'SELECT {{snippet: a}} FROM t',
    '{{snippet:a}}{{ snippet:  b c  }} {{x}} {{snippet: d}}',
    '{{{snippet: x}}}',
    '{{snippet: a} }} {{snippet: b}}',
    '{{snippet: a{b}} {{snippet: c}}',
    '{{ x }} {{snippet:}}',
    '{{snippet: a',
    '{{snippet:\n a \n}}',
    '[[ AND {{snippet: f}} ]]',
  ])('finds what the old pattern found in %j', (text) => {
    expect(findSnippetTags(text).map(({ index, length }) => ({ index, length }))).toEqual(byRegex(text));
  });

  it('hands over the text between the braces', () => {
    expect(findSnippetTags('a {{ snippet: Orders }} b')).toEqual([{ index: 2, length: 21, inner: ' snippet: Orders ' }]);
    expect(parseTagName(' snippet: Orders ')).toEqual({ kind: 'snippet', name: 'snippet: Orders', snippetName: 'Orders' });
  });
});
