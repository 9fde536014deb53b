import type { NextFunction, Request, Response } from 'express';
import { URL_NUL, urlWithoutNul } from './request-url';

const verdict = (url: string): unknown => {
  let passed: unknown = 'not called';
  urlWithoutNul()({ url } as Request, {} as Response, ((err?: unknown) => (passed = err)) as NextFunction);
  return passed;
};

describe('urlWithoutNul', () => {
  it('refuses an encoded NUL in the path or the query', () => {
    for (const url of ['/api/search?q=a%00b', '/api/user?query=%00', '/api/card/%00', '/x?y=%2500%00']) {
      expect(verdict(url)).toMatchObject({ status: 400, message: URL_NUL });
    }
  });

  it('passes everything else, other escapes included', () => {
    for (const url of ['/api/search?q=a%20b', '/api/search?q=%2500', '/api/card/1', '/']) expect(verdict(url)).toBeUndefined();
  });
});
