import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class HealthRepository {
  constructor(private readonly db: DataSource) {}

  /** Whether the app DB's connection is open at all (false once closed, at shutdown or after a fatal error). */
  connected(): boolean {
    return this.db.isInitialized;
  }

  async ping(): Promise<void> {
    if (!this.db.isInitialized) throw new Error('The app database is not connected');
    await this.db.query('SELECT 1');
  }
}
