import { ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import {
  ConnectionError,
  DetailsError,
  PoolTimeoutError,
  QueryCancelledError,
  QueryError,
  QueryTimeoutError,
  QueueTimeoutError,
  StatementRejectedError,
} from '../../query-engine/execute/drivers/errors';
import { QueryCompileError } from '../../query-engine/compile/contract';
import { InvalidQueryError } from '../../query-engine/mbql/validate';
import { ParameterError } from '../../query-engine/parameters/errors';
import { PreprocessError } from '../../query-engine/preprocess/context';
import { MALFORMED_UUID, MalformedUuidError } from '../auth/public-sharing.guard';
import { AppLogger } from '../logging/app-logger';
import { MessageError, NotFoundError } from './api-errors';
import { ApiExceptionFilter, POOL_RETRY_AFTER_SECONDS } from './api-exception.filter';

interface Sent {
  status?: number;
  headers: Record<string, string>;
  type?: string;
  text?: string;
  json?: unknown;
  ended?: boolean;
}

function answer(exception: unknown, path = '/api/field/1/search/2', headersSent = false) {
  const logger = { error: jest.fn() };
  const sent: Sent = { headers: {} };
  const res = {
    headersSent,
    status: (s: number) => ((sent.status = s), res),
    setHeader: (name: string, value: string) => ((sent.headers[name] = value), res),
    type: (t: string) => ((sent.type = t), res),
    send: (text: string) => ((sent.text = text), res),
    json: (body: unknown) => ((sent.json = body), res),
    end: () => ((sent.ended = true), res),
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => ({ path, method: 'GET' }), getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter(logger as unknown as AppLogger).catch(exception, host);
  return { sent, logger };
}

describe('ApiExceptionFilter', () => {
  describe('errors of the query engine, by class', () => {
    it.each([
      ['ConnectionError', new ConnectionError('Could not connect to the database at db.example:5432.')],
      ['QueryError', new QueryError('no such table: ORDERS', 'SQLITE_ERROR')],
      ['StatementRejectedError', new StatementRejectedError('Only one statement may be run at a time.')],
      ['QueryTimeoutError', new QueryTimeoutError(30_000)],
      ['QueryCancelledError', new QueryCancelledError()],
      ['ParameterError', new ParameterError('Unknown time zone "Mars/Olympus"', 'tz')],
      ['InvalidQueryError', new InvalidQueryError('must be a list.', 'query.aggregation')],
      ['QueryCompileError', new QueryCompileError('Unknown aggregation 3 in "order-by".', 'order-by')],
      ['PreprocessError', new PreprocessError('Card 9 does not exist.')],
    ])("answers a %s as the caller's 400 with its message", (_name, error) => {
      const { sent, logger } = answer(error);
      expect(sent).toEqual({ status: 400, headers: {}, json: { message: error.message } });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('answers a DetailsError with the offending key', () => {
      const { sent } = answer(new DetailsError('host', 'host must be a host name or address.'));
      expect(sent.status).toBe(400);
      expect(sent.json).toEqual({
        message: 'host must be a host name or address.',
        errors: { host: 'host must be a host name or address.' },
      });
    });

    it('answers a PoolTimeoutError (capacity, not the caller) with 503 and Retry-After', () => {
      const { sent, logger } = answer(new PoolTimeoutError(30_000));
      expect(sent).toEqual({
        status: 503,
        headers: { 'Retry-After': String(POOL_RETRY_AFTER_SECONDS) },
        json: { message: 'Timed out waiting for a connection from the pool (waited 30 seconds).' },
      });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('answers a QueueTimeoutError (no query slot in time) like a full pool: 503 with Retry-After', () => {
      const { sent, logger } = answer(new QueueTimeoutError(30_000));
      expect(sent).toEqual({
        status: 503,
        headers: { 'Retry-After': String(POOL_RETRY_AFTER_SECONDS) },
        json: { message: 'Timed out waiting for a turn to run the query (waited 30 seconds). Try again shortly.' },
      });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it.each([
      ['ParameterError', 'parameter'],
      ['QueryCompileError', 'invalid-query'],
    ])('matches classes, not names: an error merely named %s, of kind %s, is a logged 500', (name, kind) => {
      const impostor = Object.assign(new Error('SELECT password FROM core_user'), { name, kind });
      const { sent, logger } = answer(impostor);
      expect(sent).toEqual({ status: 500, headers: {}, json: { message: 'An unexpected error occurred.' } });
      expect(logger.error).toHaveBeenCalledWith(
        'Unhandled error',
        expect.objectContaining({ err: impostor, path: '/api/field/1/search/2' }),
      );
    });
  });

  describe('other errors', () => {
    it('keeps the shapes of ApiErrors', () => {
      expect(answer(new NotFoundError()).sent).toEqual({ status: 404, headers: {}, type: 'text/plain; charset=utf-8', text: 'Not found.' });
      expect(answer(new MessageError('Missing field-ids for parameter')).sent).toEqual({
        status: 400,
        headers: {},
        json: { message: 'Missing field-ids for parameter' },
      });
    });

    it("maps Nest's HTTP exceptions without their internals", () => {
      expect(answer(new BadRequestException('Unexpected token } in JSON at position 7')).sent.json).toEqual({
        message: 'The request body could not be parsed.',
      });
      expect(answer(new NotFoundException(), '/api/nothing').sent.text).toBe('API endpoint does not exist.');
    });

    it('answers anything unknown with a logged 500 and a generic message', () => {
      const bug = new TypeError("Cannot read properties of undefined (reading 'rows')");
      const { sent, logger } = answer(bug);
      expect(sent).toEqual({ status: 500, headers: {}, json: { message: 'An unexpected error occurred.' } });
      expect(logger.error).toHaveBeenCalledWith('Unhandled error', expect.objectContaining({ err: bug }));
    });

    it('only ends a response that has already started', () => {
      expect(answer(new QueryError('late'), '/api/dataset', true).sent).toEqual({ headers: {}, ended: true });
    });
  });

  describe('the terser surfaces', () => {
    it('answers every failure under /api/embed/ as a plain-text 400, without the headers of the status it replaced', () => {
      expect(answer(new PoolTimeoutError(1500), '/api/embed/card/x/query').sent).toEqual({
        status: 400,
        headers: {},
        type: 'text/plain; charset=utf-8',
        text: 'Timed out waiting for a connection from the pool (waited 1.5 seconds).',
      });
      expect(answer(new DetailsError('db', 'db must be a file.'), '/api/embed/card/x/query').sent.text).toBe('db must be a file.');
      expect(answer(new NotFoundError(), '/api/embed/card/x/query').sent).toMatchObject({ status: 400, text: 'Not found.' });
      expect(answer(new Error('boom'), '/api/embed/card/x/query').sent).toMatchObject({
        status: 400,
        text: 'An unexpected error occurred.',
      });
    });

    it('answers failures under /api/public/ as 400 "An error occurred." and a missing object as 404', () => {
      const terse = { status: 400, headers: {}, type: 'text/plain; charset=utf-8', text: 'An error occurred.' };
      expect(answer(new PoolTimeoutError(1000), '/api/public/card/x/query').sent).toEqual(terse);
      expect(answer(new QueryError('no such column: X'), '/api/public/card/x/query').sent).toEqual(terse);
      expect(answer(new ParameterError('bad date'), '/api/public/dashboard/x').sent).toEqual(terse);
      expect(answer(new NotFoundError(), '/api/public/card/x').sent).toMatchObject({ status: 404, text: 'Not found.' });
    });

    it('answers a malformed UUID as it is on every surface: the one failure of the public surface that says what is wrong', () => {
      const said = { status: 400, headers: {}, type: 'text/plain; charset=utf-8', text: MALFORMED_UUID };
      for (const path of ['/api/public/card/nope', '/api/public/dashboard/nope/params/x/values', '/api/card/1', '/api/embed/card/x']) {
        expect(answer(new MalformedUuidError(), path).sent).toEqual(said);
      }
      expect(answer(new MessageError('Public sharing is not enabled.'), '/api/public/card/nope').sent.text).toBe('An error occurred.');
    });
  });
});
