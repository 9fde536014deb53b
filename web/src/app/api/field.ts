import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { databaseKeys, type MetadataField } from './database';
import type { Dto } from './schema';

export type UpdateFieldBody = Dto<'UpdateFieldDto'>;
export type SemanticType = NonNullable<UpdateFieldBody['semantic_type']>;
export type FieldVisibility = NonNullable<UpdateFieldBody['visibility_type']>;
export type HasFieldValues = NonNullable<UpdateFieldBody['has_field_values']>;
export type DimensionBody = Dto<'DimensionDto'>;

/** A field's display-values setting (src/modules/fields/field-hydrator.ts `dimensionView`). */
export interface Dimension {
  id: number;
  field_id: number;
  name: string;
  type: 'external' | 'internal';
  human_readable_field_id: number | null;
}

/** `GET /api/field/:id?include_editable_data_model=true`: the field with its display values and FK target. */
export interface FieldDetail extends MetadataField {
  dimensions: Dimension[];
  target: MetadataField | null;
  table: { id: number; db_id: number; display_name: string };
}

/** `GET /api/field/:id/values`: `[[value], ...]`, or `[[value, human readable], ...]` once remapped. */
export interface FieldValues {
  field_id: number;
  values: Array<[unknown] | [unknown, string]>;
  has_more_values: boolean;
}

export const fieldKeys = {
  all: ['field'] as const,
  detail: (id: number) => ['field', id] as const,
  values: (id: number) => ['field', id, 'values'] as const,
};

export function useField(id: number) {
  return useQuery({
    queryKey: fieldKeys.detail(id),
    queryFn: ({ signal }) => api<FieldDetail>('GET', `/api/field/${id}`, { query: { include_editable_data_model: true }, signal }),
  });
}

export function useFieldValues(id: number, enabled = true) {
  return useQuery({
    queryKey: fieldKeys.values(id),
    queryFn: ({ signal }) => api<FieldValues>('GET', `/api/field/${id}/values`, { signal }),
    enabled,
  });
}

/** What a field change may alter: the field, and its table's metadata that lists it. */
function useInvalidateField() {
  const client = useQueryClient();
  return (id: number) =>
    Promise.all([client.invalidateQueries({ queryKey: fieldKeys.detail(id) }), client.invalidateQueries({ queryKey: databaseKeys.all })]);
}

/** `PUT /api/field/:id` (admins). */
export function useUpdateField(id: number) {
  const invalidate = useInvalidateField();
  return useMutation({
    mutationFn: (body: UpdateFieldBody) => api<MetadataField>('PUT', `/api/field/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(id),
  });
}

/**
 * Display values: `POST /api/field/:id/dimension` (external: a field of the FK's target table; internal: the custom
 * values given with `POST /api/field/:id/values`), or `DELETE` for the original values.
 */
export function useSetDimension(id: number) {
  const invalidate = useInvalidateField();
  return useMutation({
    mutationFn: (body: DimensionBody | null): Promise<Dimension | void> =>
      body ? api<Dimension>('POST', `/api/field/${id}/dimension`, { body }) : api<void>('DELETE', `/api/field/${id}/dimension`),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(id),
  });
}

/** `POST /api/field/:id/values` with `[value, human readable]` pairs: the custom display values. */
export function useSetFieldValues(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Array<[unknown, string]>) =>
      api<{ status: string }>('POST', `/api/field/${id}/values`, { body: { values } satisfies Dto<'FieldValuesDto'> }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: fieldKeys.values(id) }),
  });
}
