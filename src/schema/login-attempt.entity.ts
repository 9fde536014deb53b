import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Login attempts, kept in the app DB so throttling holds across every instance behind the load balancer. An
 * attempt is written before its password is checked (so a parallel burst is counted), removed again when it was
 * throttled or the password was right; what stays is the failures.
 */
@Entity('login_failure')
export class LoginFailure {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  username: string;

  @Column({ type: 'varchar', length: 64 })
  ip: string;

  @CreateDateColumn()
  created_at: Date;
}
