import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import passport from 'passport';
import type { Strategy } from 'passport-strategy';

/**
 * Does what @nestjs/passport's AuthGuard(name) does, for the one strategy instance the guard holds: passport runs it on
 * the request, handleRequest() turns its answer into the result (or throws to refuse), and the result lands on
 * `req[property]` for the controller.
 *
 * Not AuthGuard(name), which looks the strategy up by name in passport's process-wide registry: there the last app
 * instance built in a process (tests start several) replaces the strategies of the others, so a strategy could use
 * no service of its own instance. Passport gets a fresh object per request (Object.create), as it makes of a registered
 * strategy: it attaches the request's success/fail/error callbacks to the object it runs, and on a shared one a request
 * could receive another's answer.
 */
export abstract class StrategyGuard<T> implements CanActivate {
  constructor(
    /** A passport strategy (typed loosely: passport-saml types the request with its own copy of express's types). */
    private readonly strategy: { authenticate(req: never, options: never): void },
    private readonly property: string,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request & Record<string, unknown>>();
    const result = await new Promise<T>((resolve, reject) => {
      const run = passport.authenticate(Object.create(this.strategy) as Strategy, { session: false }, (err: unknown, answer: unknown) => {
        try {
          resolve(this.handleRequest(err, answer));
        } catch (e) {
          reject(e);
        }
      }) as (req: Request, res: Response, next: (err?: unknown) => void) => void;
      // Reached only when a strategy passes the request on without an answer, which neither of ours does: refuse.
      run(req, http.getResponse<Response>(), (err) => reject(err ?? new Error('strategy gave no answer')));
    });
    req[this.property] = result;
    return true;
  }

  /** The result for the controller from the strategy's answer (`err`, or `false` when it failed); throws to refuse. */
  abstract handleRequest(err: unknown, answer: unknown): T;
}
