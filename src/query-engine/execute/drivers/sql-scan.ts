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

const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

export function scanSql(sql: string, engine: Engine): ScannedSql {
  const rules = RULES[engine];
  const out = sql.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const questionMarks: number[] = [];
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
      i = blankQuoted(sql, i, '"', rules.doubleQuoteIsString && rules.backslashEscapes === 'always', blank);
    } else if (c === '`' && rules.backtickIdentifiers) {
      i = blankQuoted(sql, i, '`', false, blank);
    } else if (c === '[' && rules.bracketIdentifiers) {
      const end = sql.indexOf(']', i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      blank(i + 1, end < 0 ? stop : end);
      i = stop;
    } else if (c === '$' && rules.dollarQuotes && !(i > 0 && IDENT_CHAR.test(sql[i - 1])) && DOLLAR_TAG.test(sql.slice(i, i + 64))) {
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? sql.length : end + tag.length;
      blank(i + tag.length, end < 0 ? stop : end);
      i = stop;
    } else {
      if (c === '?') questionMarks.push(i);
      i++;
    }
  }
  const code = out.join('');
  return { code, statements: countStatements(code), firstKeyword: firstKeyword(code), questionMarks };
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
