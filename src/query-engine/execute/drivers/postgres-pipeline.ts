import { Query } from 'pg';

/** The part of pg's Connection a query writes its protocol messages through. */
interface Wire {
  parse(msg: { text: string; name?: string; types?: unknown }): void;
  bind(msg: { portal?: string; statement?: string; values?: unknown[]; binary?: boolean; valueMapper?: unknown }): void;
  describe(msg: { type: 'P' | 'S'; name?: string }): void;
  execute(msg: { portal?: string; rows?: number }): void;
  sync(): void;
  close(msg: { type: 'S' | 'P'; name?: string }): void;
}

interface QueryInternals {
  text: string;
  values?: unknown[];
  rows?: number;
  binary?: boolean;
  _result: { addCommandComplete(msg: unknown): void };
  handleError(err: unknown, connection: unknown): void;
}

/** pg's value mapper, which turns JS values into their wire text (not in the typings). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

/**
 * One statement wrapped in statements of our own (`BEGIN READ ONLY`, `SET LOCAL statement_timeout`, ...
 * `ROLLBACK`), all written in one go and closed by one Sync: the server runs them in order and the client
 * waits once, where awaiting each would cost a round trip apiece. The wrapping statements are our constants (an
 * impersonated role's name only as a quoted identifier), never user text; the statement itself is parsed and
 * bound as usual (so the server still refuses a second statement in it). If any statement fails the server skips
 * the rest up to the Sync, so the transaction is left open and aborted: the caller sees the error and rolls back
 * (the driver checks the transaction status).
 * Only the wrapped statement's rows and command tag reach the result.
 */
export class PipelinedQuery extends Query {
  private commands = 0;

  constructor(
    config: ConstructorParameters<typeof Query>[0],
    private readonly before: readonly string[],
    private readonly after: readonly string[],
  ) {
    super(config);
  }

  /** Always the extended protocol: it is what lets the messages share one Sync. */
  requiresPreparation(): boolean {
    return true;
  }

  prepare(connection: Wire): void {
    const self = this as unknown as QueryInternals;
    for (const text of this.before) this.simple(connection, text);
    connection.parse({ text: self.text });
    try {
      connection.bind({ values: self.values, binary: self.binary, valueMapper: prepareValue });
    } catch (err) {
      // A value pg cannot put on the wire: nothing of ours ran yet past the BEGIN, and the Sync ends it.
      connection.sync();
      self.handleError(err, connection);
      return;
    }
    connection.describe({ type: 'P', name: '' });
    connection.execute({ rows: self.rows && self.rows > 0 ? self.rows : undefined });
    for (const text of this.after) this.simple(connection, text);
    connection.sync();
  }

  handleCommandComplete(msg: unknown): void {
    if (this.commands++ === this.before.length) (this as unknown as QueryInternals)._result.addCommandComplete(msg);
  }

  /** The row limit was reached: the statement counts as done; the Sync that ends the portal is already sent. */
  handlePortalSuspended(): void {
    this.commands++;
  }

  handleEmptyQuery(): void {
    this.commands++;
  }

  private simple(connection: Wire, text: string): void {
    connection.parse({ text });
    connection.bind({});
    connection.execute({});
  }
}
