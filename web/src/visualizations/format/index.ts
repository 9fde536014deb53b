export * from './number';
export * from './date';
export * from './column';
