import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class HealthRepository {
  constructor(private readonly db: DataSource) {}

  async ping(): Promise<void> {
    if (!this.db.isInitialized) throw new Error('The app database is not connected');
    await this.db.query('SELECT 1');
  }
}
