import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { Id, IsMap, Nullable } from '../../common/validation/validators';
import type { Sandbox } from '../../schema/sandbox.entity';

/** POST /api/mt/gtap and POST /api/mt/gtap/validate. */
export class CreateRowPolicyDto {
  @Id()
  group_id: number;

  @Id()
  table_id: number;

  @Nullable()
  @Id()
  card_id?: number | null;

  @Nullable()
  @IsMap()
  attribute_remappings?: Record<string, unknown> | null;
}

/** PUT /api/mt/gtap/:id: only the keys present change. `table_id` and `group_id` are accepted only unchanged. */
export class UpdateRowPolicyDto {
  @Nullable()
  @Id()
  card_id?: number | null;

  @Nullable()
  @IsMap()
  attribute_remappings?: Record<string, unknown> | null;

  @Nullable()
  @Id()
  table_id?: number | null;

  @Nullable()
  @Id()
  group_id?: number | null;
}

const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value));

/** GET /api/mt/gtap: with both keys, the one policy of that group and table (or null). */
export class ListRowPoliciesQuery {
  @IsOptional()
  @Id()
  @IntString()
  group_id?: number;

  @IsOptional()
  @Id()
  @IntString()
  table_id?: number;
}

/** A policy as the API shows it. */
export interface RowPolicyView {
  id: number;
  group_id: number;
  table_id: number;
  card_id: number | null;
  attribute_remappings: Record<string, unknown>;
}

export function mapRowPolicy(p: Sandbox): RowPolicyView {
  return { id: p.id, group_id: p.group_id, table_id: p.table_id, card_id: p.card_id, attribute_remappings: p.attribute_remappings ?? {} };
}
