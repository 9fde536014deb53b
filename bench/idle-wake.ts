/**
 * What waking an idle process costs on this machine, with no code of ours in it: two bare processes bounce a small
 * message over loopback TCP, back to back and then after each has slept as long as a scan of the orders takes. The
 * query suite reports both round trips beside its one-row cases that wait on Postgres.
 */
import * as net from 'node:net';
import { median } from './http';
import { startPortProcess } from './port-process';

const ECHO = `
const net = require('node:net');
const s = net.createServer((c) => {
  c.setNoDelay(true);
  c.on('data', (d) => c.write(d));
});
s.listen(0, '127.0.0.1', () => console.log('PORT ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

export interface IdleWake {
  /** Median round trip (µs) of messages sent back to back. */
  hotUs: number;
  /** Median round trip (µs) of messages sent after both processes have been idle `idleMs`. */
  afterIdleUs: number;
  idleMs: number;
}

export async function measureIdleWake(idleMs = 60, runs = 60): Promise<IdleWake> {
  const echo = await startPortProcess('the echo process', ECHO);
  try {
    const socket = net.connect(echo.port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const message = Buffer.alloc(200, 1);
    const roundTrip = () =>
      new Promise<number>((resolve) => {
        const t0 = process.hrtime.bigint();
        socket.once('data', () => resolve(Number(process.hrtime.bigint() - t0) / 1e3));
        socket.write(message);
      });
    const hot: number[] = [];
    for (let i = 0; i < 20 * runs; i++) hot.push(await roundTrip());
    const idle: number[] = [];
    for (let i = 0; i < runs; i++) {
      await new Promise((r) => setTimeout(r, idleMs));
      idle.push(await roundTrip());
    }
    socket.destroy();
    return { hotUs: median(hot.slice(runs)), afterIdleUs: median(idle), idleMs };
  } finally {
    echo.stop();
  }
}
