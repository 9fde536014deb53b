/**
 * A piece of app-database SQL with its values kept apart: `sql\`c.id = ${id}\`` binds `id`; a `Sql` interpolated into
 * another is nested, its values in order. Placeholders are numbered only when the whole statement runs (AppSql), so
 * conditions compose (`and`, `or`) without anyone counting `$n`. Identifiers never come from values: a column name is
 * written in the template or given with `ident` (quoted).
 */
export class Sql {
  /** `strings.length === values.length + 1`, as in a template literal. */
  private constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  static of(strings: readonly string[], values: readonly unknown[]): Sql {
    const outStrings = [strings[0]];
    const outValues: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Sql) {
        outStrings[outStrings.length - 1] += value.strings[0];
        for (let j = 0; j < value.values.length; j++) {
          outValues.push(value.values[j]);
          outStrings.push(value.strings[j + 1]);
        }
        outStrings[outStrings.length - 1] += strings[i + 1];
      } else {
        outValues.push(value);
        outStrings.push(strings[i + 1]);
      }
    });
    return new Sql(outStrings, outValues);
  }

  /** The text with `$1, $2, ...` (numbered from `first`), and the values in that order. */
  numbered(first = 1): { text: string; values: unknown[] } {
    let text = this.strings[0];
    for (let i = 0; i < this.values.length; i++) text += `$${first + i}${this.strings[i + 1]}`;
    return { text, values: [...this.values] };
  }

  get isEmpty(): boolean {
    return this.values.length === 0 && this.strings[0].trim() === '';
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return Sql.of(strings, values);
}

/** Trusted SQL text, written in the code (never a value from a request). */
export function raw(text: string): Sql {
  return Sql.of([text], []);
}

/** A column or table name, quoted (`"a"."b"` for `a.b`). */
export function ident(name: string): Sql {
  return raw(
    name
      .split('.')
      .map((part) => `"${part.replace(/"/g, '""')}"`)
      .join('.'),
  );
}

export const TRUE = raw('TRUE');
export const FALSE = raw('FALSE');

export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return raw('');
  const strings = ['', ...Array<string>(parts.length - 1).fill(separator), ''];
  return Sql.of(strings, parts);
}

/** Every condition holds (TRUE when none is given); undefined parts are left out. */
export function and(...parts: Array<Sql | undefined | null | false>): Sql {
  const given = parts.filter((p): p is Sql => p instanceof Sql);
  if (given.length === 0) return TRUE;
  return given.length === 1 ? given[0] : sql`(${join(given, ' AND ')})`;
}

/** One of the conditions holds (FALSE when none is given). */
export function or(...parts: Array<Sql | undefined | null | false>): Sql {
  const given = parts.filter((p): p is Sql => p instanceof Sql);
  if (given.length === 0) return FALSE;
  return given.length === 1 ? given[0] : sql`(${join(given, ' OR ')})`;
}

/** `column IN (values...)`; FALSE for no values (SQL has no empty list). */
export function inList(column: Sql, values: readonly unknown[]): Sql {
  if (values.length === 0) return FALSE;
  return sql`${column} IN (${join(values.map((v) => sql`${v}`))})`;
}

/** A LIKE pattern matching `text` anywhere, its wildcards escaped; use with `ESCAPE '\\'`. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}
