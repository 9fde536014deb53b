import { QueryCancelledError } from './errors';
import { ESCALATE_AFTER_MS, QueryGuard } from './query-guard';

/** A promise settled from outside, so a test decides when the database "answers". */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('QueryGuard escalation', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setUp() {
    const ac = new AbortController();
    const cancel = deferred();
    const statement = deferred<string>();
    const actions = { cancel: jest.fn(() => cancel.promise), escalate: jest.fn() };
    const guard = new QueryGuard({ signal: ac.signal }, actions, null);
    const running = guard.run(() => statement.promise);
    running.catch(() => undefined);
    return { ac, cancel, statement, actions, running };
  }

  it('keeps the connection when the cancel is acknowledged late and the statement then stops', async () => {
    const { ac, cancel, statement, actions, running } = setUp();
    ac.abort();
    // The cancel takes far longer than the escalation delay to be acknowledged (a loaded machine).
    await jest.advanceTimersByTimeAsync(ESCALATE_AFTER_MS * 5);
    expect(actions.cancel).toHaveBeenCalledTimes(1);
    cancel.resolve();
    await jest.advanceTimersByTimeAsync(ESCALATE_AFTER_MS - 1);
    statement.reject(new Error('canceling statement due to user request'));
    await expect(running).rejects.toBeInstanceOf(QueryCancelledError);
    await jest.advanceTimersByTimeAsync(ESCALATE_AFTER_MS * 5);
    expect(actions.escalate).not.toHaveBeenCalled();
  });

  it('drops the connection when the statement goes on after an acknowledged cancel', async () => {
    const { ac, cancel, statement, actions, running } = setUp();
    ac.abort();
    cancel.resolve();
    await jest.advanceTimersByTimeAsync(ESCALATE_AFTER_MS - 1);
    expect(actions.escalate).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(actions.escalate).toHaveBeenCalledTimes(1);
    statement.reject(new Error('connection terminated'));
    await expect(running).rejects.toBeInstanceOf(QueryCancelledError);
  });

  it('drops the connection at once when the cancel itself fails', async () => {
    const { ac, cancel, statement, actions, running } = setUp();
    ac.abort();
    cancel.reject(new Error('could not connect'));
    await jest.advanceTimersByTimeAsync(0);
    expect(actions.escalate).toHaveBeenCalledTimes(1);
    statement.reject(new Error('connection terminated'));
    await expect(running).rejects.toBeInstanceOf(QueryCancelledError);
  });
});
