import type { Response } from 'supertest';

/** Assertions on the wire shapes of Metabase's errors (plain-text 401/403/404, `{errors}` on validation), shared by the e2e tests. */
export const UNAUTHENTICATED = 'Unauthenticated';
export const FORBIDDEN = "You don't have permissions to do that.";
export const NOT_FOUND = 'Not found.';

export function expectText(res: Response, status: number, text: string): void {
  expect([res.status, res.text]).toEqual([status, text]);
}

export const expect401 = (res: Response) => expectText(res, 401, UNAUTHENTICATED);
export const expect403 = (res: Response) => expectText(res, 403, FORBIDDEN);
export const expect404 = (res: Response) => expectText(res, 404, NOT_FOUND);

/** 400 naming exactly one parameter, with its `received:` detail. */
export function expect400(res: Response, param: string, message: string): void {
  expect([res.status, res.body.errors]).toEqual([400, { [param]: message }]);
  expect(res.body['specific-errors'][param][0]).toContain('received:');
}

/** 400 `{message}`. */
export function expectMessage(res: Response, message: string): void {
  expect([res.status, res.body]).toEqual([400, { message }]);
}
