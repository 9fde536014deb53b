import { spawn } from 'node:child_process';

export interface PortProcess {
  port: number;
  stop(): void;
}

/**
 * A small Node program (`source`, run with `node -e` and `args`) in its own process, once it has printed
 * `PORT <n>`: the port it listens on. It should exit on SIGTERM, which stop() sends.
 */
export function startPortProcess(what: string, source: string, args: string[] = []): Promise<PortProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['-e', source, ...args], { env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    proc.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = out.match(/PORT (\d+)/);
      if (m) resolve({ port: Number(m[1]), stop: () => proc.kill('SIGTERM') });
    });
    proc.stderr.on('data', (b: Buffer) => (out += b.toString()));
    proc.on('exit', (code) => reject(new Error(`${what} exited with ${code}: ${out}`)));
  });
}
