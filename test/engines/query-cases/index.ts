import { AGGREGATION_CASES } from './aggregations';
import { BASIC_CASES } from './basics';
import { EXPRESSION_CASES } from './expressions';
import { FILTER_CASES } from './filters';
import { BINNING_CASES, HOSTILE_CASES, JOIN_CASES, LIMIT_CASES, NESTED_CASES } from './structure';
import { TEMPORAL_CASES } from './temporal';
import { TIMEZONE_CASES } from './timezones';
import type { QueryCase } from './types';

export const ALL_CASES: QueryCase[] = [
  ...BASIC_CASES,
  ...FILTER_CASES,
  ...AGGREGATION_CASES,
  ...EXPRESSION_CASES,
  ...TEMPORAL_CASES,
  ...BINNING_CASES,
  ...LIMIT_CASES,
  ...JOIN_CASES,
  ...NESTED_CASES,
  ...TIMEZONE_CASES,
  ...HOSTILE_CASES,
];
