import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('setting')
export class Setting {
  @PrimaryColumn({ type: 'varchar', length: 254 })
  key: string;

  /** Serialized value; sensitive values are encrypted when ENCRYPTION_KEY is set. */
  @Column({ type: 'text', nullable: true })
  value: string | null;
}
