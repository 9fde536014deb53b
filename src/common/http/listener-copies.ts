import { spawn } from 'node:child_process';
import * as net from 'node:net';

/** Extra handles on the listening socket: with the server's own, 256 connections accepted per turn of the event loop. */
export const LISTENER_COPIES = 255;

/** The helper process: hands back the descriptor it was given, once per message (Node has no dup()). */
const ECHO = "let h;process.on('message',(m,x)=>{if(x)h=x;process.send(m,h)})";

export interface ListenerCopies {
  /** The copies made so far, each listening; to be closed with the server (while one is open, the socket listens). */
  readonly servers: net.Server[];
  /** Settles once every copy is made (true), or when they cannot be (false: the server accepts through its own). */
  readonly done: Promise<boolean>;
  /** Makes no more copies. */
  stop(): void;
}

/**
 * Since libuv 1.45 (Node 20) a listening handle accepts one connection per turn of the event loop, and a turn
 * handles every request that is ready: under a crowd it lasts long, and a burst of new connections (a viewer's
 * browser opens six) waits in the kernel's queue, one accepted per turn, while the requests of connections already
 * open are answered. A new viewer's first request, the dashboard, was the slowest by seconds. Each more handle on
 * the same socket accepts one more per turn: `copies` duplicates of the server's listening descriptor, made in the
 * background by handing it to a short-lived child process and back, feed their connections to `server` as its own.
 * While no connection waits, a copy costs nothing; while some do, each copy's turn without one is an accept() that
 * answers EAGAIN at once.
 */
export function copyListener(server: net.Server, copies: number, backlog: number, timeoutMs = 30_000): ListenerCopies {
  const servers: net.Server[] = [];
  const handle = (server as unknown as { _handle?: object | null })._handle;
  if (!handle || copies <= 0 || process.platform === 'win32') return { servers, done: Promise.resolve(false), stop: () => undefined };
  let settle: (ok: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => (settle = resolve));
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: {} });
  let finished = false;
  const finish = (ok: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    child.kill();
    settle(ok);
  };
  const timer = setTimeout(() => finish(false), timeoutMs);
  timer.unref();
  child.on('error', () => finish(false));
  child.on('exit', () => finish(servers.length === copies));
  child.on('message', (_m, copy) => {
    if (finished || !copy) {
      (copy as { close?: () => void } | undefined)?.close?.();
      return finish(servers.length === copies);
    }
    const extra = new net.Server();
    extra.on('connection', (socket: net.Socket) => server.emit('connection', socket));
    // listen() again on the shared socket: with the server's backlog, or it would fall back to Node's 511.
    extra.listen(copy as net.Server, backlog);
    servers.push(extra);
    if (servers.length === copies) finish(true);
    else child.send(servers.length);
  });
  child.send(0, handle as net.Server);
  return { servers, done, stop: () => finish(servers.length === copies) };
}
