import { Injectable, PipeTransform } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../errors/api-errors';
import { MSG } from './messages';

/** App-DB ids are 32-bit integers; Postgres refuses a larger value in a query (a 500), and no row can have one. */
const MAX_DB_ID = 2_147_483_647;

/** Path ids: `:id` must be an integer greater than zero, else the spec's 400. */
@Injectable()
export class PositiveIntPipe implements PipeTransform<string, number> {
  constructor(private readonly param = 'id') {}
  transform(value: string): number {
    if (!/^[1-9]\d{0,14}$/.test(String(value))) throw ValidationError.of(this.param, MSG.positiveInt, value);
    if (Number(value) > MAX_DB_ID) throw new NotFoundError();
    return Number(value);
  }
}

export const IdParam = (name = 'id') => new PositiveIntPipe(name);

/** A `str+` path parameter (a parameter key, a search prefix): anything but blank, else the spec's 400 naming it. */
@Injectable()
export class NonBlankPipe implements PipeTransform<string, string> {
  constructor(private readonly param: string) {}
  transform(value: string): string {
    if (typeof value !== 'string' || !/\S/.test(value)) throw ValidationError.of(this.param, MSG.nonBlank, value);
    return value;
  }
}

export const NonBlankParam = (name: string) => new NonBlankPipe(name);
