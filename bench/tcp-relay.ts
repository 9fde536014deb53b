/**
 * A process that only relays bytes between its clients and one TCP server: the cheapest hop a request can take
 * through another process. The query suite runs Postgres queries through it beside the direct runs, so that what
 * any process in the middle costs (waking it, two more socket copies) can be told apart from the server's work.
 */
import { ChildProcess, spawn } from 'node:child_process';

// No Nagle on either side, as pg sets on its own socket: a relay that held small writes back would be slower than need be.
const RELAY = `
const net = require('node:net');
const [host, port] = [process.argv[1], Number(process.argv[2])];
const s = net.createServer((client) => {
  const server = net.connect(port, host);
  client.setNoDelay(true);
  server.setNoDelay(true);
  client.pipe(server);
  server.pipe(client);
  client.on('error', () => server.destroy());
  server.on('error', () => client.destroy());
  client.on('close', () => server.destroy());
  server.on('close', () => client.destroy());
});
s.listen(0, '127.0.0.1', () => console.log('PORT ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

export interface Relay {
  port: number;
  stop(): void;
}

export function startRelay(host: string, port: number): Promise<Relay> {
  return new Promise((resolve, reject) => {
    const proc: ChildProcess = spawn(process.execPath, ['-e', RELAY, host, String(port)], { env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = out.match(/PORT (\d+)/);
      if (m) resolve({ port: Number(m[1]), stop: () => proc.kill('SIGTERM') });
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.on('exit', (code) => reject(new Error(`the relay exited with ${code}: ${out}`)));
  });
}
