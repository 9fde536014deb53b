import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Feedback stays on the instance (we send nothing home); admins read it from the app DB. */
@Entity('product_feedback')
export class ProductFeedback {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer', nullable: true })
  user_id: number | null;

  @Column({ type: 'varchar', length: 254 })
  source: string;

  @Column({ type: 'text', nullable: true })
  comments: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @CreateDateColumn()
  created_at: Date;
}
