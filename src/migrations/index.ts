import { Foundation1763683200000 } from './1763683200000-foundation';

/** Every migration, in order. Append new ones; never edit one that has landed. */
export const MIGRATIONS = [Foundation1763683200000];
