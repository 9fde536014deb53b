import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import { StrategyGuard } from './strategy.guard';

/** Answers each request with its own `who`, once the test releases it: requests overlap as they do in a server. */
class SlowStrategy extends Strategy {
  readonly pending: Array<() => void> = [];
  override authenticate(request: Request): void {
    const req = request as unknown as { who?: string; refuse?: boolean; fail?: boolean };
    this.pending.push(() => {
      if (req.refuse) return this.error(new Error(`refused ${req.who}`));
      if (req.fail) return this.fail(401);
      return this.success({ who: req.who });
    });
  }
}

class WhoGuard extends StrategyGuard<{ who: string }> {
  handleRequest(err: unknown, answer: unknown): { who: string } {
    if (err) throw err;
    if (!answer) throw new Error('nobody');
    return answer as { who: string };
  }
}

const ctx = (req: object) => ({ switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }) }) as unknown as ExecutionContext;

describe('StrategyGuard', () => {
  it("hands each of overlapping requests its own answer, on the guard's property", async () => {
    const strategy = new SlowStrategy();
    const guard = new WhoGuard(strategy, 'verified');
    const a: Record<string, unknown> = { who: 'a' };
    const b: Record<string, unknown> = { who: 'b' };
    const both = Promise.all([guard.canActivate(ctx(a)), guard.canActivate(ctx(b))]);
    expect(strategy.pending).toHaveLength(2);
    // Released in the other order: on one shared strategy object, b's callbacks would have replaced a's.
    strategy.pending[1]();
    strategy.pending[0]();
    await expect(both).resolves.toEqual([true, true]);
    expect(a.verified).toEqual({ who: 'a' });
    expect(b.verified).toEqual({ who: 'b' });
  });

  it("refuses with the strategy's error, or handleRequest's when the strategy fails", async () => {
    const strategy = new SlowStrategy();
    const guard = new WhoGuard(strategy, 'verified');
    const refused: Record<string, unknown> = { who: 'c', refuse: true };
    const failed: Record<string, unknown> = { who: 'd', fail: true };
    const outcomes = [guard.canActivate(ctx(refused)), guard.canActivate(ctx(failed))];
    strategy.pending.forEach((release) => release());
    await expect(outcomes[0]).rejects.toThrow('refused c');
    await expect(outcomes[1]).rejects.toThrow('nobody');
    expect(refused.verified).toBeUndefined();
    expect(failed.verified).toBeUndefined();
  });
});
