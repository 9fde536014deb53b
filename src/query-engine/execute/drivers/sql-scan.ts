import type { Engine } from './driver';

/**
 * A lexical pass over SQL that knows each dialect's literals, quoted identifiers and comments, so that checks on
 * the remaining code (statement count, first keyword, placeholders) cannot be fooled by a `;` or `?` inside a
 * string or comment. Not a parser: anything it cannot tell apart is left to the database, which has the last word.
 */
export interface ScannedSql {
  /** The SQL with the insides of literals, quoted identifiers and comments blanked (same length and offsets). */
  code: string;
  /** How many statements have code in them. */
  statements: number;
  /** The first keyword, upper-cased ('(' for a parenthesised query), or null. */
  firstKeyword: string | null;
  /** Offsets of `?` in code. */
  questionMarks: number[];
  /**
   * What the SQL calls as a function: each name followed by `(` (spaces or comments between allowed), lower-cased.
   * Quoted names count unquoted (`"pg_read_file"(`, `` `LOAD_FILE`( ``, Postgres `U&"..."` decoded), and a
   * qualified name by its last part (`pg_catalog.pg_read_file(` calls pg_read_file).
   */
  calls: string[];
}

/** A quoted identifier (or MySQL double-quoted text, an identifier under ANSI_QUOTES) as written. */
interface QuotedName {
  /** Offset of the opening quote, and just after the closing one. */
  start: number;
  end: number;
  /** `"`, `` ` `` or `[`. */
  quote: string;
  /** Postgres `U&"..."`: escapes to decode. */
  unicode: boolean;
}

interface DialectRules {
  backslashEscapes: 'always' | 'e-prefix' | 'never';
  doubleQuoteIsString: boolean;
  backtickIdentifiers: boolean;
  bracketIdentifiers: boolean;
  dollarQuotes: boolean;
  nestedComments: boolean;
  hashComments: boolean;
  /** MySQL runs the inside of `/*! ... *\/` comments. */
  executableComments: boolean;
  /** MySQL: `--` starts a comment only when followed by whitespace. */
  dashDashNeedsSpace: boolean;
}

const POSTGRES_RULES: DialectRules = {
  backslashEscapes: 'e-prefix',
  doubleQuoteIsString: false,
  backtickIdentifiers: false,
  bracketIdentifiers: false,
  dollarQuotes: true,
  nestedComments: true,
  hashComments: false,
  executableComments: false,
  dashDashNeedsSpace: false,
};

const RULES: Record<Engine, DialectRules> = {
  postgres: POSTGRES_RULES,
  // DuckDB follows Postgres's lexical rules.
  duckdb: POSTGRES_RULES,
  mysql: {
    backslashEscapes: 'always',
    doubleQuoteIsString: true,
    backtickIdentifiers: true,
    bracketIdentifiers: false,
    dollarQuotes: false,
    nestedComments: false,
    hashComments: true,
    executableComments: true,
    dashDashNeedsSpace: true,
  },
  sqlite: {
    backslashEscapes: 'never',
    doubleQuoteIsString: false,
    backtickIdentifiers: true,
    bracketIdentifiers: true,
    dollarQuotes: false,
    nestedComments: false,
    hashComments: false,
    executableComments: false,
    dashDashNeedsSpace: false,
  },
};

/** Characters the scanner looks at; everything else is skipped over. */
const SPECIAL = /[-#/*'"`[$?]/g;
const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

export function scanSql(sql: string, engine: Engine): ScannedSql {
  const rules = RULES[engine];
  // Ranges to blank, in order; the code is put together once at the end.
  const blanked: number[] = [];
  const blank = (from: number, to: number) => {
    if (to > from) blanked.push(from, to);
  };
  const questionMarks: number[] = [];
  const quoted: QuotedName[] = [];
  const noteQuoted = (start: number, end: number, quote: string) => {
    const unicode =
      quote === '"' &&
      rules.dollarQuotes &&
      start >= 2 &&
      sql[start - 1] === '&' &&
      (sql[start - 2] === 'U' || sql[start - 2] === 'u') &&
      !(start > 2 && IDENT_CHAR.test(sql[start - 3]));
    quoted.push({ start, end, quote, unicode });
  };
  let inExecutableComment = false;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-' && (!rules.dashDashNeedsSpace || i + 2 >= sql.length || /\s/.test(sql[i + 2]))) {
      i = blankLineComment(sql, i, blank);
    } else if (c === '#' && rules.hashComments) {
      i = blankLineComment(sql, i, blank);
    } else if (c === '/' && next === '*') {
      const exec = rules.executableComments ? /^\/\*M?!\d*/.exec(sql.slice(i, i + 12)) : null;
      if (exec) {
        blank(i, i + exec[0].length);
        inExecutableComment = true;
        i += exec[0].length;
      } else {
        i = blankBlockComment(sql, i, rules.nestedComments, blank);
      }
    } else if (c === '*' && next === '/' && inExecutableComment) {
      blank(i, i + 2);
      inExecutableComment = false;
      i += 2;
    } else if (c === "'") {
      const escapes = rules.backslashEscapes === 'always' || (rules.backslashEscapes === 'e-prefix' && isEPrefixed(sql, i));
      i = blankQuoted(sql, i, "'", escapes, blank);
    } else if (c === '"') {
      const stop = blankQuoted(sql, i, '"', rules.doubleQuoteIsString && rules.backslashEscapes === 'always', blank);
      noteQuoted(i, stop, '"');
      i = stop;
    } else if (c === '`' && rules.backtickIdentifiers) {
      const stop = blankQuoted(sql, i, '`', false, blank);
      noteQuoted(i, stop, '`');
      i = stop;
    } else if (c === '[' && rules.bracketIdentifiers) {
      const end = sql.indexOf(']', i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      blank(i + 1, end < 0 ? stop : end);
      noteQuoted(i, stop, '[');
      i = stop;
    } else if (c === '$' && rules.dollarQuotes && !(i > 0 && IDENT_CHAR.test(sql[i - 1])) && DOLLAR_TAG.test(sql.slice(i, i + 64))) {
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? sql.length : end + tag.length;
      blank(i + tag.length, end < 0 ? stop : end);
      i = stop;
    } else {
      if (c === '?') questionMarks.push(i);
      // Straight on to the next character that may start something.
      SPECIAL.lastIndex = i + 1;
      i = SPECIAL.test(sql) ? SPECIAL.lastIndex - 1 : sql.length;
    }
  }
  const code = blankRanges(sql, blanked);
  return {
    code,
    statements: countStatements(code),
    firstKeyword: firstKeyword(code),
    questionMarks,
    calls: calledNames(sql, code, quoted),
  };
}

/** The SQL with every character but newlines in the ranges (`[from, to, from, to...]`) made a space. */
function blankRanges(sql: string, ranges: number[]): string {
  if (ranges.length === 0) return sql;
  const units = new Uint16Array(sql.length);
  for (let k = 0; k < sql.length; k++) units[k] = sql.charCodeAt(k);
  for (let r = 0; r < ranges.length; r += 2) {
    for (let k = ranges[r]; k < ranges[r + 1]; k++) if (units[k] !== 10) units[k] = 32;
  }
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

/** See ScannedSql.calls. One pass over the `(` of the code, looking back over spaces to the name before each. */
function calledNames(sql: string, code: string, quoted: QuotedName[]): string[] {
  const names: string[] = [];
  let q = 0;
  for (let k = code.indexOf('('); k >= 0; k = code.indexOf('(', k + 1)) {
    let j = k;
    while (j > 0 && isSpace(code.charCodeAt(j - 1))) j--;
    // Postgres `U&"name" UESCAPE '!'` is one name.
    j = beforeUescape(code, j);
    // Both move forward only: the name before a `(` ends after the previous `(`.
    while (q < quoted.length && quoted[q].end < j) q++;
    if (q < quoted.length && quoted[q].end === j) {
      names.push(quotedName(sql, code, quoted[q]).toLowerCase());
      continue;
    }
    let start = j;
    while (start > 0 && IDENT_CHAR.test(code[start - 1])) start--;
    if (start < j) names.push(code.slice(start, j).toLowerCase());
  }
  return names;
}

/** The name a quoted identifier stands for: the text between the quotes, doubled quotes undone, escapes decoded. */
function quotedName(sql: string, code: string, q: QuotedName): string {
  const closing = q.quote === '[' ? ']' : q.quote;
  const closed = q.end - 1 > q.start && sql[q.end - 1] === closing;
  const inside = sql.slice(q.start + 1, closed ? q.end - 1 : q.end);
  const text = q.quote === '[' || !inside.includes(q.quote + q.quote) ? inside : inside.split(q.quote + q.quote).join(q.quote);
  return q.unicode ? decodeUnicodeName(text, unicodeEscapeChar(sql, code, q.end)) : text;
}

/** Space, tab, newline, vertical tab, form feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Where the name ends when the code before `end` is `UESCAPE 'c'` (the literal's insides are blanked); else `end`. */
function beforeUescape(code: string, end: number): number {
  if (end < 10 || code[end - 1] !== "'" || code[end - 3] !== "'") return end;
  let j = end - 3;
  while (j > 0 && isSpace(code.charCodeAt(j - 1))) j--;
  if (j < 7 || code.slice(j - 7, j).toUpperCase() !== 'UESCAPE') return end;
  j -= 7;
  while (j > 0 && isSpace(code.charCodeAt(j - 1))) j--;
  return code[j - 1] === '"' ? j : end;
}

/** The escape character of a Postgres `U&"..."` identifier: `\`, or the one its `UESCAPE 'c'` clause names. */
function unicodeEscapeChar(sql: string, code: string, after: number): string {
  let j = after;
  while (j < code.length && isSpace(code.charCodeAt(j))) j++;
  if (code.slice(j, j + 7).toUpperCase() !== 'UESCAPE') return '\\';
  j += 7;
  while (j < code.length && isSpace(code.charCodeAt(j))) j++;
  return sql[j] === "'" && sql[j + 2] === "'" ? sql[j + 1] : '\\';
}

/** Postgres `U&"d\0061t\+000061"`: `<esc>XXXX` and `<esc>+XXXXXX` code points, `<esc><esc>` the escape itself. */
function decodeUnicodeName(text: string, esc: string): string {
  let out = '';
  for (let k = 0; k < text.length; k++) {
    if (text[k] !== esc) {
      out += text[k];
    } else if (text[k + 1] === esc) {
      out += esc;
      k++;
    } else if (
      text[k + 1] === '+' &&
      /^[0-9A-Fa-f]{6}$/.test(text.slice(k + 2, k + 8)) &&
      parseInt(text.slice(k + 2, k + 8), 16) <= 0x10ffff
    ) {
      out += String.fromCodePoint(parseInt(text.slice(k + 2, k + 8), 16));
      k += 7;
    } else if (/^[0-9A-Fa-f]{4}$/.test(text.slice(k + 1, k + 5))) {
      out += String.fromCharCode(parseInt(text.slice(k + 1, k + 5), 16));
      k += 4;
    } else {
      out += text[k];
    }
  }
  return out;
}

function isEPrefixed(sql: string, quote: number): boolean {
  return quote > 0 && (sql[quote - 1] === 'e' || sql[quote - 1] === 'E') && !(quote > 1 && IDENT_CHAR.test(sql[quote - 2]));
}

function blankLineComment(sql: string, i: number, blank: (a: number, b: number) => void): number {
  const end = sql.indexOf('\n', i);
  const stop = end < 0 ? sql.length : end;
  blank(i, stop);
  return stop;
}

function blankBlockComment(sql: string, i: number, nested: boolean, blank: (a: number, b: number) => void): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    if (sql[j] === '/' && sql[j + 1] === '*' && (nested || depth === 0)) {
      depth++;
      j += 2;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--;
      j += 2;
      if (depth === 0) break;
    } else {
      j++;
    }
  }
  blank(i, j);
  return j;
}

/** Blanks a quoted run (keeping the quotes) where a doubled quote, or a backslash when `escapes`, escapes. */
function blankQuoted(sql: string, i: number, quote: string, escapes: boolean, blank: (a: number, b: number) => void): number {
  let j = i + 1;
  while (j < sql.length) {
    if (escapes && sql[j] === '\\') {
      j += 2;
    } else if (sql[j] === quote) {
      if (sql[j + 1] === quote) j += 2;
      else break;
    } else {
      j++;
    }
  }
  blank(i + 1, Math.min(j, sql.length));
  return Math.min(j + 1, sql.length);
}

function countStatements(code: string): number {
  return code.split(';').filter((part) => /\S/.test(part)).length;
}

function firstKeyword(code: string): string | null {
  const m = /^[\s(]*?(\(|[A-Za-z_]+)/.exec(code);
  return m ? m[1].toUpperCase() : null;
}

/**
 * Postgres: each `?` placeholder becomes `$1`, `$2`...; `??` stands for a literal `?` (the jsonb operators).
 * Returns the rewritten SQL and the number of placeholders.
 */
export function questionMarksToDollars(sql: string, scanned: ScannedSql): { sql: string; count: number } {
  let out = '';
  let last = 0;
  let count = 0;
  const marks = scanned.questionMarks;
  for (let k = 0; k < marks.length; k++) {
    const at = marks[k];
    out += sql.slice(last, at);
    if (marks[k + 1] === at + 1) {
      out += '?';
      k++;
      last = at + 2;
    } else {
      out += `$${++count}`;
      last = at + 1;
    }
  }
  return { sql: out + sql.slice(last), count };
}
