import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { copyListener } from './listener-copies';

/** Opens `n` connections to the port, and exits once all have been made (the kernel completes them while queued). */
const CONNECT =
  "const net=require('net');const [port,n]=process.argv.slice(1).map(Number);let c=0;" +
  "for(let i=0;i<n;i++)net.connect(port,'127.0.0.1',()=>{if(++c===n)process.exit(0)}).on('error',()=>process.exit(1));";

const listening = (server: net.Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
const closed = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('copyListener', () => {
  it('accepts as many queued connections in one turn of the event loop as there are handles, into the one HTTP server', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await listening(server);
    const copies = copyListener(server, 15, 4096);
    expect(await copies.done).toBe(true);
    const extras = copies.servers;
    expect(extras).toHaveLength(15);
    const port = (server.address() as net.AddressInfo).port;
    const sockets: net.Socket[] = [];
    server.on('connection', (socket: net.Socket) => sockets.push(socket));
    const inOneTurn = await new Promise<number>((resolve) => {
      setTimeout(() => {
        // The event loop stands still while the child connects: its 40 connections wait in the kernel's queue. The
        // next turn's poll phase accepts, then setImmediate counts (libuv alone accepts one per handle and turn).
        const child = spawnSync(process.execPath, ['-e', CONNECT, String(port), '40']);
        expect(child.status).toBe(0);
        setImmediate(() => resolve(sockets.length));
      });
    });
    expect(inOneTurn).toBe(16);
    // Connections a copy accepted are the HTTP server's: it answers on them.
    const answer = await new Promise<string>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', agent: false }, (res) => res.on('data', (b: Buffer) => resolve(b.toString())))
        .on('error', reject);
    });
    expect(answer).toBe('ok');
    sockets.forEach((s) => s.destroy());
    await Promise.all([...extras, server].map(closed));
    // Closed with the server, the copies leave nothing listening.
    const refused = await new Promise<string>((resolve) => {
      net.connect(port, '127.0.0.1', () => resolve('connected')).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('keeps the backlog of the server', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await listening(server);
    const copies = copyListener(server, 2, 4096);
    expect(await copies.done).toBe(true);
    const extras = copies.servers;
    // Each copy listen()s again on the shared socket: without the backlog, Node's 511 would hold only 512 connections
    // while the event loop stands still. Linux caps the backlog at net.core.somaxconn.
    const somaxconn = fs.existsSync('/proc/sys/net/core/somaxconn')
      ? Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'))
      : 4096;
    const burst = Math.min(800, somaxconn);
    const port = (server.address() as net.AddressInfo).port;
    const child = spawnSync(process.execPath, ['-e', CONNECT, String(port), String(burst)], { timeout: 30_000 });
    expect(child.status).toBe(0);
    await Promise.all([...extras, server].map(closed));
  });
});
