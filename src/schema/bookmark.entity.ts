import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type BookmarkModel = 'card' | 'dashboard' | 'collection';

/** A user's bookmark of a card, dashboard or collection, in the order the user gave them. */
@Entity('bookmark')
export class Bookmark {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  @Column({ type: 'varchar', length: 16 })
  model: BookmarkModel;

  @Column({ type: 'integer' })
  model_id: number;

  @Column({ type: 'integer', nullable: true })
  ordering: number | null;

  @CreateDateColumn()
  created_at: Date;
}
