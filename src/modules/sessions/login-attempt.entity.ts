import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Failed logins, kept in the app DB so throttling holds across every instance behind the load balancer. */
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
