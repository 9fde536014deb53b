import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '../errors/api-errors';
import { MSG } from './messages';

/** Path ids: `:id` must be an integer greater than zero, else the spec's 400. */
@Injectable()
export class PositiveIntPipe implements PipeTransform<string, number> {
  constructor(private readonly param = 'id') {}
  transform(value: string): number {
    if (!/^[1-9]\d{0,14}$/.test(String(value))) throw ValidationError.of(this.param, MSG.positiveInt, value);
    return Number(value);
  }
}

export const IdParam = (name = 'id') => new PositiveIntPipe(name);
