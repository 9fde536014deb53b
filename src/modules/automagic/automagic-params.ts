import { ValidationError } from '../../common/errors/api-errors';
import type { Show } from './dashboard-builder';
import { findTemplate, TEMPLATES } from './templates';
import type { Template } from './template.types';

/** The entities an x-ray can be about. */
export const ENTITIES = ['table', 'field', 'segment', 'metric', 'question', 'model', 'adhoc'] as const;
export type Entity = (typeof ENTITIES)[number];
export const COMPARISON_ENTITIES = ['table', 'segment', 'adhoc'] as const;
export type ComparisonEntity = (typeof COMPARISON_ENTITIES)[number];

const POSITIVE_INT = 'value must be an integer greater than zero.';
const BASE64_JSON = "value couldn't be parsed as base64 encoded JSON";

export function parseEntity(v: string): Entity {
  if (!(ENTITIES as readonly string[]).includes(v)) throw ValidationError.of('entity', 'Invalid entity type', v);
  return v as Entity;
}

export function parseComparisonEntity(v: string): ComparisonEntity {
  if (!(COMPARISON_ENTITIES as readonly string[]).includes(v))
    throw ValidationError.of('comparison-entity', 'Invalid comparison entity type', v);
  return v as ComparisonEntity;
}

/** `all`, a natural number, or absent. */
export function parseShow(v: unknown): Show {
  if (v === undefined) return null;
  if (v === 'all') return 'all';
  if (typeof v === 'string' && /^\d{1,9}$/.test(v)) return Number(v);
  throw ValidationError.of('show', 'invalid show value', v);
}

export function parseId(param: string, v: string): number {
  if (!/^\d{1,15}$/.test(v) || Number(v) < 1) throw ValidationError.of(param, POSITIVE_INT, v);
  return Number(v);
}

/** Standard or URL-safe base64 of JSON (what clients put in `:cell-query` and adhoc `:entity-id-or-query`). */
export function parseBase64Json(param: string, v: string): unknown {
  const cleaned = v.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cleaned)) throw ValidationError.of(param, BASE64_JSON, v);
  try {
    return JSON.parse(Buffer.from(cleaned, 'base64').toString('utf8'));
  } catch {
    throw ValidationError.of(param, BASE64_JSON, v);
  }
}

/** A filter clause: a list led by its operator. */
export function parseCell(v: string): unknown[] {
  const cell = parseBase64Json('cell-query', v);
  if (!Array.isArray(cell) || typeof cell[0] !== 'string') throw ValidationError.of('cell-query', BASE64_JSON, v);
  return cell;
}

export function parseTemplate(prefix: string, name: string): { prefix: string; template: Template } {
  if (!Object.prototype.hasOwnProperty.call(TEMPLATES, prefix)) throw ValidationError.of('prefix', 'invalid value for prefix', prefix);
  const template = findTemplate(prefix, name);
  if (!template) throw ValidationError.of('dashboard-template', 'invalid value for dashboard template name', name);
  return { prefix, template };
}

export function encodeBase64Json(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64');
}
