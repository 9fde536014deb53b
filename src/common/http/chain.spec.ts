import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { chain } from './chain';

describe('chain (several middleware as one Express layer)', () => {
  const req = {} as Request;
  const res = {} as Response;
  const step =
    (name: string, seen: string[], then: (next: NextFunction) => void = (next) => next()): RequestHandler =>
    (_q, _s, next) => {
      seen.push(name);
      then(next);
    };

  it('runs the middleware in order, then hands on', () => {
    const seen: string[] = [];
    const next = jest.fn();
    chain(step('a', seen), step('b', seen), step('c', seen))(req, res, next);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenCalledWith();
  });

  it('stops where one answers, and passes an error on, passed or thrown, without running the rest', () => {
    const seen: string[] = [];
    const next = jest.fn();
    chain(
      step('a', seen),
      step('answers', seen, () => undefined),
      step('never', seen),
    )(req, res, next);
    expect(seen).toEqual(['a', 'answers']);
    expect(next).not.toHaveBeenCalled();

    const failure = new Error('bad');
    chain(
      step('passes', seen, (n) => n(failure)),
      step('never', seen),
    )(req, res, next);
    expect(next).toHaveBeenLastCalledWith(failure);
    chain(
      step('throws', seen, () => {
        throw failure;
      }),
      step('never', seen),
    )(req, res, next);
    expect(next).toHaveBeenCalledTimes(2);
    expect(next).toHaveBeenLastCalledWith(failure);
    expect(seen).not.toContain('never');
  });

  it('waits for a middleware that calls next later', async () => {
    const seen: string[] = [];
    const next = jest.fn();
    chain(
      step('later', seen, (n) => setImmediate(n)),
      step('b', seen),
    )(req, res, next);
    expect(seen).toEqual(['later']);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['later', 'b']);
    expect(next).toHaveBeenCalledWith();
  });
});
