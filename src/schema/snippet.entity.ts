import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A named piece of SQL that native queries include with `{{snippet: name}}`. */
@Entity('native_query_snippet')
export class NativeQuerySnippet {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254, unique: true })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'integer' })
  creator_id: number;

  @Column({ type: 'integer', nullable: true })
  collection_id: number | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
