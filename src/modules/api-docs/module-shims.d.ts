// class-transformer keeps @Type() metadata in a storage its index does not export; its file ships without typings.
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: import('class-transformer/types/MetadataStorage').MetadataStorage;
}

// swagger-ui-dist ships no typings; only the folder of its files is used.
declare module 'swagger-ui-dist' {
  export function getAbsoluteFSPath(): string;
}
