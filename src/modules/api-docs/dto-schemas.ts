import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** The JSON-schema subset an OpenAPI 3 document uses for a DTO. */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  nullable?: boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  additionalProperties?: boolean | Schema;
}

type Ctor = new (...args: never[]) => unknown;

/**
 * Schemas of the request DTOs from what their class-validator decorators already say (the rules the
 * ValidationPipe enforces), so the document cannot drift from the validation. @nestjs/swagger's own route to
 * the same (its CLI plugin, or @ApiProperty on every field) would need a second description of each DTO.
 * Nested DTOs (@ValidateNested with @Type) are added to `schemas` too and referenced.
 */
export function dtoSchema(dto: Ctor, schemas: Record<string, Schema>): Schema {
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, rules] of byProperty) {
    const optional = rules.some((r) => r.type === ValidationTypes.CONDITIONAL_VALIDATION);
    const nullable = rules.some((r) => r.type === ValidationTypes.CONDITIONAL_VALIDATION && r.name !== 'isOptional');
    if (!optional) required.push(name);
    properties[name] = { ...propertySchema(dto, name, rules, schemas), ...(nullable ? { nullable: true } : {}) };
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function propertySchema(dto: Ctor, name: string, rules: ValidationMetadata[], schemas: Record<string, Schema>): Schema {
  const own: Schema = {};
  const each: Schema = {};
  for (const rule of rules) applyRule(rule.each ? each : own, rule);
  const nested = rules.some((r) => r.type === ValidationTypes.NESTED_VALIDATION);
  const designType = Reflect.getMetadata('design:type', dto.prototype as object, name) as unknown;
  const declared = defaultMetadataStorage.findTypeMetadata(dto, name)?.typeFunction() as Ctor | undefined;
  if (nested && declared) {
    const ref = refTo(declared, schemas);
    if (own.type === 'array' || designType === Array) return { ...own, type: 'array', items: ref };
    return ref;
  }
  if (own.type === 'array' || designType === Array) return { ...own, type: 'array', ...(Object.keys(each).length ? { items: each } : {}) };
  if (!own.type && !own.enum) {
    const fromDesign = DESIGN_TYPES.get(designType);
    if (fromDesign) own.type = fromDesign;
  }
  return own;
}

const DESIGN_TYPES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Object, 'object'],
]);

/** What one class-validator rule says about the value, by the rule's name. */
function applyRule(s: Schema, rule: ValidationMetadata): void {
  const c = (rule.constraints ?? []) as unknown[];
  switch (rule.name) {
    case 'isString':
      s.type = 'string';
      break;
    case 'isEmail':
      s.type = 'string';
      s.format = 'email';
      break;
    case 'matches':
      if (c[0] instanceof RegExp) s.pattern = c[0].source;
      else if (typeof c[0] === 'string') s.pattern = c[0];
      break;
    case 'maxLength':
      s.maxLength = c[0] as number;
      break;
    case 'isInt':
      s.type = 'integer';
      break;
    case 'isNumber':
      s.type = 'number';
      break;
    case 'min':
      s.minimum = c[0] as number;
      break;
    case 'max':
      s.maximum = c[0] as number;
      break;
    case 'isBoolean':
      s.type = 'boolean';
      break;
    case 'isObject':
      s.type = 'object';
      break;
    case 'isArray':
      s.type = 'array';
      break;
    case 'arrayNotEmpty':
      s.minItems = 1;
      break;
    case 'arrayMaxSize':
      s.maxItems = c[0] as number;
      break;
    case 'isIn': {
      const values = (c[0] as unknown[]).filter((v) => typeof v !== 'boolean' || !(c[0] as unknown[]).includes(String(v)));
      s.enum = values;
      if (values.every((v) => typeof v === 'string')) s.type ??= 'string';
      break;
    }
    default:
      break; // custom rules (query bodies, parameters...) are described by the route's own text
  }
}

function refTo(dto: Ctor, schemas: Record<string, Schema>): Schema {
  if (!schemas[dto.name] || !schemas[dto.name].properties || Object.keys(schemas[dto.name].properties ?? {}).length === 0) {
    schemas[dto.name] = { type: 'object' }; // placed first: a DTO that nests itself stops here
    schemas[dto.name] = dtoSchema(dto, schemas);
  }
  return { $ref: `#/components/schemas/${dto.name}` };
}
