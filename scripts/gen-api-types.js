#!/usr/bin/env node
/**
 * The web application's API types (web/src/app/api/generated/openapi.ts) from the server's OpenAPI document, with
 * openapi-typescript. `npm run gen:api-types` builds the server if needed, then this starts the built server on a
 * throw-away data directory (no network port), takes its document and writes the file. `--stdout` prints the types
 * instead (test/web/api-types.spec.ts compares them with the committed file). The built server, not the sources:
 * swagger reads route parameters from the compiler's decorator metadata, which tsc writes as the server runs it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const OUT = path.join(root, 'web', 'src', 'app', 'api', 'generated', 'openapi.ts');
const HEADER = '/* Generated from GET /api/docs/openapi.json by `npm run gen:api-types`. Do not edit. */\n\n';

async function render(doc) {
  const { default: openapiTS, astToString } = require('openapi-typescript');
  // A free-form object (`details`, `settings`) is `Record<string, unknown>`, not openapi-typescript's default `never`.
  return HEADER + astToString(await openapiTS(doc, { emptyObjectsUnknown: true }));
}

async function documentOfBuiltServer() {
  const { createApp } = require(path.join(root, 'dist', 'src', 'app.factory'));
  const { loadConfig } = require(path.join(root, 'dist', 'src', 'config', 'app-config'));
  const { ApiDocsService } = require(path.join(root, 'dist', 'src', 'modules', 'api-docs', 'api-docs.service'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-types-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_TARGET: 'memory', LOAD_SAMPLE_DATABASE: 'false', SYNC_CHECK_SECONDS: '0' });
  const app = await createApp(config);
  try {
    await app.init();
    return JSON.parse(JSON.stringify(await app.get(ApiDocsService).document()));
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

(async () => {
  const types = await render(await documentOfBuiltServer());
  if (process.argv.includes('--stdout')) {
    process.stdout.write(types);
    return;
  }
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, types);
  console.log(`wrote ${path.relative(root, OUT)}`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
