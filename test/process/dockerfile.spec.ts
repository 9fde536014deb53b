import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Copy, DockerfileParser, From, Healthcheck, Instruction, JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';

/**
 * The Dockerfile and the production example, checked without a Docker daemon (none here; .ci/run builds and starts
 * the image where there is one): it parses and lints clean, its stages build the server and the web pages with
 * the npm scripts, the runtime runs as a non-root user with a health check on /api/health, and the compose example
 * runs two instances behind HAProxy on one Postgres.
 */
const root = path.resolve(__dirname, '..', '..');
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const dockerfile = DockerfileParser.parse(text);
  const stages = dockerfile.getFROMs().map((from: From) => {
    const start = from.getRange().start.line;
    const next =
      dockerfile
        .getFROMs()
        .find((f) => f.getRange().start.line > start)
        ?.getRange().start.line ?? Infinity;
    const instructions = dockerfile.getInstructions().filter((i) => i.getRange().start.line >= start && i.getRange().start.line < next);
    return { name: from.getBuildStage(), image: from.getImageName(), instructions };
  });
  const stage = (name: string) => {
    const s = stages.find((x) => x.name === name);
    if (!s) throw new Error(`no stage ${name}`);
    return s;
  };
  const runs = (name: string) =>
    stage(name)
      .instructions.filter((i) => i.getKeyword() === 'RUN')
      .map((i) => i.getArgumentsContent());
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

  it('parses and lints without a problem', () => {
    expect(validate(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('installs once, then builds the server and the web pages in their own stages with the npm scripts', () => {
    expect(stages.map((s) => [s.name, s.image])).toEqual([
      ['deps', 'node'],
      ['build', 'deps'],
      ['web', 'deps'],
      ['runtime', 'node'],
    ]);
    expect(runs('deps')).toContain('npm ci --no-audit --no-fund');
    expect(runs('build')).toEqual(['npm run build && npm prune --omit=dev']);
    expect(runs('web')).toEqual(['npm run build:web']);
    expect(pkg.scripts.build).toBeDefined();
    expect(pkg.scripts['build:web']).toBeDefined();
  });

  it('copies from the build context only what exists and .dockerignore lets through', () => {
    const ignored = read('.dockerignore').split('\n').filter(Boolean);
    const sources = dockerfile
      .getInstructions()
      .filter((i): i is Copy => i.getKeyword() === 'COPY' && !(i as Copy).getFromFlag())
      .flatMap((c) =>
        c
          .getArguments()
          .slice(0, -1)
          .map((a) => a.getValue()),
      );
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src', 'scripts', 'web']));
    for (const source of sources) {
      expect([source, fs.existsSync(path.join(root, source))]).toEqual([source, true]);
      expect(ignored).not.toContain(source);
    }
    // Built output never comes from the context: it is built in the image.
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'web/dist']));
  });

  it('runs the compiled server and the built pages as the unprivileged node user', () => {
    const runtime = stage('runtime').instructions;
    const copied = runtime
      .filter((i): i is Copy => i.getKeyword() === 'COPY')
      .map((c) => `${c.getFromFlag()?.getValue()}:${c.getArguments()[0].getValue()}`);
    expect(copied).toEqual(expect.arrayContaining(['build:/app/node_modules', 'build:/app/dist', 'web:/app/web/dist']));
    const users = runtime.filter((i) => i.getKeyword() === 'USER');
    expect(users.map((u) => u.getArgumentsContent())).toEqual(['node']);
    // Nothing runs as root after the switch, and the data directory belongs to the user.
    const userLine = users[0].getRange().start.line;
    expect(runtime.filter((i) => i.getKeyword() === 'RUN' && i.getRange().start.line > userLine)).toEqual([]);
    expect(runs('runtime').join('\n')).toContain('chown node:node /data');
    const cmd = runtime.find((i) => i.getKeyword() === 'CMD') as JSONInstruction;
    // The image runs the server as `npm start` does, V8 flags included.
    expect(cmd.getJSONStrings().map((s) => s.getJSONValue())).toEqual(['node', 'dist/src/main.js']);
    expect(pkg.scripts.start).toBe('node dist/src/main.js');
    expect(runtime.find((i) => i.getKeyword() === 'EXPOSE')?.getArgumentsContent()).toMatch(/\b3000\b/);
  });

  it("runs on glibc's malloc with nothing preloaded, which the server itself trims as `npm start` runs it", () => {
    const env = stage('runtime')
      .instructions.filter((i: Instruction) => i.getKeyword() === 'ENV')
      .map((i: Instruction) => i.getArgumentsContent());
    expect(env.join('\n')).not.toMatch(/LD_PRELOAD|MALLOC_TRIM_INTERVAL_SECONDS/);
    expect(runs('runtime').join('\n')).not.toContain('jemalloc');
  });

  it('has a health check on GET /api/health', () => {
    const checks = stage('runtime').instructions.filter((i: Instruction) => i.getKeyword() === 'HEALTHCHECK') as Healthcheck[];
    expect(checks).toHaveLength(1);
    expect(checks[0].getSubcommand()?.getValue()).toBe('CMD');
    expect(checks[0].getArgumentsContent()).toContain("/api/health')");
    expect(
      checks[0]
        .getFlags()
        .map((f) => f.getName())
        .sort(),
    ).toEqual(['interval', 'retries', 'start-period', 'timeout']);
  });
});

describe('examples/production', () => {
  const compose = parseYaml(read('examples/production/docker-compose.yml')) as {
    services: Record<
      string,
      {
        image?: string;
        build?: { context: string };
        environment?: Record<string, string>;
        ports?: string[];
        volumes?: string[];
        depends_on?: unknown;
      }
    >;
  };
  const haproxy = read('examples/production/haproxy.cfg');

  it('runs Postgres, two instances of this image and HAProxy in front of them', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app1', 'app2', 'haproxy', 'postgres']);
    for (const name of ['app1', 'app2']) {
      const app = compose.services[name];
      expect(path.resolve(root, 'examples/production', app.build?.context ?? '')).toBe(root);
      expect(app.environment?.DATABASE_URL).toMatch(/^postgres:\/\/analytics:.*@postgres:5432\/analytics$/);
      expect(app.environment?.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/); // one key, required, for all
      expect(app.environment?.METRICS_PORT).toBe('9464');
      expect(app.ports).toBeUndefined(); // reached through HAProxy only
    }
    expect(compose.services.haproxy.ports).toEqual(['8080:8080']);
    expect(compose.services.haproxy.volumes).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
  });

  it('balances over both instances, checking each on GET /api/health', () => {
    expect(haproxy).toMatch(/^\s*http-check send meth GET uri \/api\/health$/m);
    expect(haproxy).toMatch(/^\s*http-check expect status 200$/m);
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+) check$/gm)].map((m) => [m[1], m[2]]);
    expect(servers).toEqual([
      ['app1', 'app1:3000'],
      ['app2', 'app2:3000'],
    ]);
    expect(haproxy).toMatch(/^\s*bind :8080$/m);
  });
  it('is a configuration HAProxy accepts (where HAProxy is installed)', () => {
    const check = spawnSync('haproxy', ['-c', '-f', path.join(root, 'examples/production/haproxy.cfg')], { encoding: 'utf8' });
    if (check.error) {
      console.warn('haproxy is not installed: the example configuration was not checked by HAProxy itself');
      return;
    }
    // The compose service names resolve only inside the compose network: HAProxy warns, and starts without them.
    expect([check.status, check.stdout + check.stderr]).toEqual([0, expect.stringContaining('Configuration file is valid')]);
  });
});
