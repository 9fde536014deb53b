import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The session key itself is never stored: only its SHA-256, so a leaked table grants nothing. */
@Entity('core_session')
export class Session {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key_hash: string;

  @Column({ type: 'integer' })
  user_id: number;

  @CreateDateColumn()
  created_at: Date;
}
