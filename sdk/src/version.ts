/**
 * The package's version, sent to the server as `X-Metabase-Client-Version`. 1.55: after the 1.54.x change of the
 * spec's Versioning part (no `authProviderUri`, `fetchRequestToken` without parameters, `response=json`).
 */
export const SDK_VERSION = '1.55.0';
export const SDK_CLIENT_NAME = 'embedding-sdk-react';
