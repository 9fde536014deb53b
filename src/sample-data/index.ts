export { DEFAULT_ORDERS, DEFAULT_SEED, SampleData, type Row } from './generate';
export { SAMPLE_TABLES, type SampleTable } from './schema';
export { writeSampleDatabase, type SampleCounts, type SampleTarget, type WriteOptions } from './write';
export { ensureSampleDatabase, SAMPLE_DATABASE_FILE } from './ensure';
