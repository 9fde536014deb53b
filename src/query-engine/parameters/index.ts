export * from './errors';
export * from './date-params';
export * from './to-filter';
export * from './apply-mbql';
