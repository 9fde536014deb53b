import * as fs from 'node:fs';
import * as path from 'node:path';

export interface VersionInfo {
  tag: string;
  date: string | null;
  hash: string | null;
}

let cached: VersionInfo | undefined;

/** `version` of session properties: the package version, plus the commit and date the build recorded. */
export function versionInfo(): VersionInfo {
  if (cached) return cached;
  const root = path.resolve(__dirname, '..', '..');
  const pkgPath = [path.join(root, 'package.json'), path.join(root, '..', 'package.json')].find((p) => fs.existsSync(p));
  const pkg = pkgPath ? (JSON.parse(fs.readFileSync(pkgPath, 'utf8')) as { version?: string }) : {};
  let build: { date?: string; hash?: string } = {};
  for (const p of [path.join(root, 'build-info.json'), path.join(root, 'dist', 'build-info.json')]) {
    if (fs.existsSync(p)) build = JSON.parse(fs.readFileSync(p, 'utf8')) as typeof build;
  }
  cached = { tag: `v${pkg.version ?? '0.0.0'}`, date: build.date ?? null, hash: build.hash ?? null };
  return cached;
}
