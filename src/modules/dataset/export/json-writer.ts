import { BufferedOutput } from '../../../common/http/buffered-output';
import { formatValue } from './format-value';
import type { ExportWriter, ExportWriterOptions } from './export-writer';

/** The key of the last element of a JSON download whose rows stopped early. */
export const INCOMPLETE_KEY = 'download_incomplete';

/** A JSON array of objects keyed by column title (a later column with the same title wins, as in Metabase). */
export class JsonWriter implements ExportWriter {
  private titles: string[] = [];
  private first = true;
  /** Each batch's text is encoded into reused buffers (see BufferedOutput), not handed to the socket as a string. */
  private readonly output: BufferedOutput;

  constructor(private readonly opts: ExportWriterOptions) {
    this.output = new BufferedOutput(opts.out);
  }

  begin(titles: string[]): Promise<boolean> {
    this.titles = titles;
    return this.output.write('[');
  }

  write(rows: unknown[][]): Promise<boolean> {
    if (rows.length === 0) return Promise.resolve(!this.opts.out.destroyed);
    const { cols, formatRows } = this.opts;
    const settings = this.opts.settings ?? [];
    const objects = rows.map((row) => {
      // No prototype: a column titled `__proto__` is just a key.
      const o: Record<string, unknown> = Object.create(null);
      row.forEach((v, i) => (o[this.titles[i]] = formatValue(v, cols[i], formatRows, settings[i])));
      return o;
    });
    const text = JSON.stringify(objects).slice(1, -1);
    const chunk = this.first ? text : `,${text}`;
    this.first = false;
    return this.output.write(chunk);
  }

  /**
   * A last element `{"download_incomplete": message}`, and no closing bracket: a JSON parser refuses the file (no
   * truncated answer passes for the whole one), and a person or a streaming reader sees why it stops there.
   */
  async incomplete(message: string): Promise<void> {
    const marker = JSON.stringify({ [INCOMPLETE_KEY]: message });
    await this.output.end(this.first ? marker : `,${marker}`);
  }

  end(): Promise<void> {
    return this.output.end(']');
  }
}
