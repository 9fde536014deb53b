import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const ACTION_TYPES = ['query', 'implicit', 'http'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const IMPLICIT_KINDS = ['row/create', 'row/update', 'row/delete'] as const;
export type ImplicitKind = (typeof IMPLICIT_KINDS)[number];

/** An action on a model (a card of type `model`). JSON columns hold text. */
@Entity('action')
export class Action {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  model_id: number;

  @Column({ type: 'varchar', length: 32 })
  type: ActionType;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  parameters: string | null;

  @Column({ type: 'text', nullable: true })
  parameter_mappings: string | null;

  @Column({ type: 'text', nullable: true })
  visualization_settings: string | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  public_uuid: string | null;

  @Column({ type: 'integer', nullable: true })
  made_public_by_id: number | null;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}

/** The SQL of a `query` action and the database it runs on. */
@Entity('query_action')
export class QueryAction {
  @PrimaryColumn({ type: 'integer' })
  action_id: number;

  @Column({ type: 'integer' })
  database_id: number;

  @Column({ type: 'text' })
  dataset_query: string;
}

/** What an `implicit` action does to a row of the model's table. */
@Entity('implicit_action')
export class ImplicitAction {
  @PrimaryColumn({ type: 'integer' })
  action_id: number;

  @Column({ type: 'varchar', length: 32 })
  kind: ImplicitKind;
}
